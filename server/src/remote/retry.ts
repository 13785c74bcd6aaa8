import { RemoteError } from './errors';
import { isRateLimitWait } from './limiter';

/** Worth asking again: the remote's retryable errors, and a call that waited too long for its turn. */
const isTransient = (err: unknown) =>
  isRateLimitWait(err) || (err instanceof RemoteError && err.retryable);

/**
 * `fn` again after `delayMs(attempt)` while it fails with what `retryable` accepts, `attempts`
 * times at most; `before` runs ahead of each try (a stop check that throws).
 */
export async function withRetries<T>(
  fn: () => Promise<T>,
  o: {
    attempts: number;
    delayMs: (attempt: number) => number;
    retryable?: (err: unknown) => boolean;
    before?: () => void;
  }
): Promise<T> {
  const retryable = o.retryable ?? isTransient;
  for (let attempt = 1; ; attempt++) {
    o.before?.();
    try {
      return await fn();
    } catch (err) {
      if (!retryable(err) || attempt >= o.attempts) throw err;
      await new Promise((r) => setTimeout(r, o.delayMs(attempt)));
    }
  }
}
