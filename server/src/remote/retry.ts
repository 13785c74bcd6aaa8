import { RemoteError } from './errors';

/**
 * `fn` again after `delayMs(attempt)` while it fails with a retryable RemoteError (a call whose
 * turn under the rate limit never came is one: the transport's timeout), `attempts` times at
 * most; `before` runs ahead of each try (a stop check that throws).
 */
export async function withRetries<T>(
  fn: () => Promise<T>,
  o: {
    attempts: number;
    delayMs: (attempt: number) => number;
    before?: () => void;
  }
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    o.before?.();
    try {
      return await fn();
    } catch (err) {
      if (!(err instanceof RemoteError && err.retryable) || attempt >= o.attempts) throw err;
      await new Promise((r) => setTimeout(r, o.delayMs(attempt)));
    }
  }
}
