import { AsyncLocalStorage } from 'node:async_hooks';
import PQueue from 'p-queue';
import { causes, parseRetryAfter } from './errors';

/** The arguments of any fetch (transport.ts's FetchLike, test fakes); passed through as given. */
type FetchArgs = [url: string, init?: { signal?: AbortSignal }];

/**
 * A call whose time ran out while it waited for its turn under the rate limit: it never left,
 * so it cannot have changed anything, and the entry is not at fault.
 */
class RateLimitWaitError extends Error {
  name = 'RateLimitWaitError';
}

/** True for an error (or any error in its `cause` chain) raised by waiting under the rate limit. */
export const isRateLimitWait = (err: unknown): boolean =>
  [...causes(err)].some((e) => e instanceof RateLimitWaitError);

/** p-queue runs a greater priority first and keeps the order of equal ones. */
const PUSH = 0;
const BACKGROUND = -1;

const MAX_RATE_LIMIT_RETRIES = 5;

/**
 * Every HTTP call to the remote, token requests included, goes through one p-queue that holds
 * the rate limit. A 429 pauses the whole queue for Retry-After, since the remote would refuse
 * every other call too, then the same request is sent again, up to MAX_RATE_LIMIT_RETRIES times
 * before its caller sees the 429. On the main thread, a freed slot waits while entries are
 * mapped (bench/HISTORY.md, nineteenth session).
 */
export function createLimiter(options: {
  requestsPerSecond: number;
  concurrency: number;
  onPause?: (ms: number) => void;
}) {
  const rps = options.requestsPerSecond;
  // Small windows spread the calls evenly: a full-second window would burst at its start.
  const intervalCap = Math.max(1, Math.ceil(rps / 50));
  const queue = new PQueue({
    concurrency: options.concurrency,
    intervalCap,
    interval: (1000 * intervalCap) / rps,
    // A sliding window: fixed windows let 2 × intervalCap calls start around each window's edge.
    strict: true,
  });
  let pausedUntil = 0;
  let resumeTimer: NodeJS.Timeout | undefined;
  let pauses = 0;
  let stopped = false;

  const pause = (ms: number) => {
    const now = Date.now();
    const until = now + ms;
    if (until <= pausedUntil) return;
    // The calls that were already in flight get their 429 too: one pause, extended, not one each.
    const extending = pausedUntil > now;
    pausedUntil = until;
    if (!extending) pauses += 1;
    queue.pause();
    clearTimeout(resumeTimer);
    resumeTimer = setTimeout(() => {
      pausedUntil = 0;
      queue.start();
    }, ms);
    resumeTimer.unref?.();
    if (!extending) options.onPause?.(ms);
  };

  /**
   * Calls made inside `background(fn)` (the inventory walk) take their turn after every call of a
   * push already waiting: they share the rate limit without holding editors' changes back.
   * `onSent` is told when each of these calls really leaves (after its wait in the queue).
   */
  const lane = new AsyncLocalStorage<{ onSent?: (at: number) => void }>();
  const background = <T>(fn: () => Promise<T>, onSent?: (at: number) => void): Promise<T> =>
    lane.run({ onSent }, fn);

  const wrap = <
    A extends FetchArgs,
    R extends { status: number; headers: { get(name: string): string | null | undefined } },
  >(
    fetchImpl: (...args: A) => Promise<R>
  ) =>
    async function limitedFetch(...args: A): Promise<R> {
      const signal: AbortSignal | undefined = args[1]?.signal;
      const inBackground = lane.getStore();
      for (let attempt = 0; ; attempt++) {
        let sent = false;
        let res: R;
        try {
          res = await queue.add(
            () => {
              sent = true;
              inBackground?.onSent?.(Date.now());
              return fetchImpl(...args);
            },
            { priority: inBackground ? BACKGROUND : PUSH, signal }
          );
        } catch (err) {
          // Only a call that really left may have had an effect: the rest is a wait that ran out.
          throw sent || !signal?.aborted
            ? err
            : new RateLimitWaitError(
                "the call waited too long for its turn under the remote's rate limit and was not sent"
              );
        }
        // Once stopped, a late 429 goes to its caller: pausing would set a timer that starts the queue again.
        if (res.status !== 429 || attempt >= MAX_RATE_LIMIT_RETRIES || stopped) return res;
        pause(Math.max(100, parseRetryAfter(res.headers.get('retry-after')) ?? 1000));
      }
    };

  return {
    wrap,
    background,
    stats: () => ({
      pauses,
      pausedUntil: pausedUntil > Date.now() ? new Date(pausedUntil).toISOString() : null,
      pending: queue.pending,
      waiting: queue.size,
    }),
    // Paused, not cleared: clear() drops the waiting calls' abort listeners, and their promises
    // would never settle; each now ends at its own timeout as a wait, unsent.
    stop: () => {
      stopped = true;
      clearTimeout(resumeTimer);
      queue.pause();
    },
  };
}

export type Limiter = ReturnType<typeof createLimiter>;
