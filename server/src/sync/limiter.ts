import PQueue from 'p-queue';

type FetchLike = (url: any, init?: any) => Promise<any>;

export interface LimiterOptions {
  requestsPerSecond: number;
  concurrency: number;
  /** how many times one request waits out a 429 before its caller sees the 429 */
  maxRateLimitRetries?: number;
  onPause?: (ms: number) => void;
}

/** Retry-After as seconds or an HTTP date; 1 s when absent or unreadable. */
export function retryAfterMs(header: string | null | undefined, now = Date.now()): number {
  if (header) {
    const seconds = Number(header);
    if (Number.isFinite(seconds) && seconds >= 0) return Math.max(seconds * 1000, 100);
    const at = Date.parse(header);
    if (!Number.isNaN(at)) return Math.max(at - now, 100);
  }
  return 1000;
}

/**
 * Every HTTP call to the remote, token requests included, goes through one queue that
 * holds the rate limit. A 429 pauses the whole queue for Retry-After, since the remote
 * would refuse every other call too, then the same request is sent again.
 */
export function createLimiter(options: LimiterOptions) {
  const rps = options.requestsPerSecond;
  // Small windows spread the calls evenly: a full-second window would burst at its start.
  const intervalCap = Math.max(1, Math.ceil(rps / 50));
  const interval = (1000 * intervalCap) / rps;
  const queue = new PQueue({ concurrency: options.concurrency, intervalCap, interval, strict: true });
  const maxRetries = options.maxRateLimitRetries ?? 5;
  let pausedUntil = 0;
  let resumeTimer: NodeJS.Timeout | undefined;
  let pauses = 0;

  const pause = (ms: number) => {
    const until = Date.now() + ms;
    if (until <= pausedUntil) return;
    pausedUntil = until;
    pauses += 1;
    queue.pause();
    clearTimeout(resumeTimer);
    resumeTimer = setTimeout(() => {
      pausedUntil = 0;
      queue.start();
    }, ms);
    resumeTimer.unref?.();
    options.onPause?.(ms);
  };

  const wrap = (fetchImpl: FetchLike): FetchLike =>
    async function limitedFetch(url, init) {
      for (let attempt = 0; ; attempt++) {
        const res = await queue.add(() => fetchImpl(url, init), { throwOnTimeout: true } as any);
        if (res.status !== 429 || attempt >= maxRetries) return res;
        pause(retryAfterMs(res.headers.get('retry-after')));
        await res.arrayBuffer?.().catch(() => undefined);
      }
    };

  return {
    wrap,
    stats: () => ({
      pauses,
      pausedUntil: pausedUntil > Date.now() ? new Date(pausedUntil).toISOString() : null,
      pending: queue.pending,
      waiting: queue.size,
    }),
    stop: () => {
      clearTimeout(resumeTimer);
      queue.clear();
    },
  };
}

export type Limiter = ReturnType<typeof createLimiter>;
