import { createLimiter, isRateLimitWait } from '../../server/src/remote/limiter';

/**
 * The rules of the queue every remote call goes through. Time is jest's fake clock: the tests
 * count what started by when, never how fast anything ran.
 */
type Answer = { status: number; headers: Map<string, string> };
const ok = (): Answer => ({ status: 200, headers: new Map() });

/** A fake remote whose answers the test gives by hand; `sent` lists the calls in the order they left. */
function heldRemote() {
  const sent: string[] = [];
  const open: Array<{ url: string; answer: (a: Answer) => void }> = [];
  const fetch = (url: string, _init?: { signal?: AbortSignal }) =>
    new Promise<Answer>((answer) => {
      sent.push(url);
      open.push({ url, answer });
    });
  const answer = (url: string, a: Answer = ok()) => {
    const i = open.findIndex((o) => o.url === url);
    open.splice(i, 1)[0].answer(a);
  };
  return { sent, open, fetch, answer };
}

/** One call in flight on a one-slot queue, and a second one waiting behind it with its own abort. */
function oneSentOneWaiting() {
  const limiter = createLimiter({ requestsPerSecond: 1_000_000, concurrency: 1 });
  const remote = heldRemote();
  const fetch = limiter.wrap(remote.fetch);
  const first = fetch('/first');
  const controller = new AbortController();
  const waiting = fetch('/waiting', { signal: controller.signal });
  return { limiter, remote, fetch, first, controller, waiting };
}

describe('the rate limit', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('starts at most requestsPerSecond ÷ 50 calls in any 20 ms, a sliding window', async () => {
    // 100/s: 2 calls per 20 ms.
    const limiter = createLimiter({ requestsPerSecond: 100, concurrency: 100 });
    const starts: number[] = [];
    const t0 = Date.now();
    const fetch = limiter.wrap(async (_url: string) => {
      starts.push(Date.now() - t0);
      return ok();
    });
    const calls = Array.from({ length: 10 }, (_, i) => fetch(`/${i}`));
    await jest.advanceTimersByTimeAsync(0);
    expect(starts).toHaveLength(2);
    await jest.advanceTimersByTimeAsync(19);
    expect(starts).toHaveLength(2);
    await jest.advanceTimersByTimeAsync(1);
    expect(starts).toHaveLength(4);
    await jest.advanceTimersByTimeAsync(60);
    await Promise.all(calls);
    expect(starts).toHaveLength(10);
    for (const s of starts) expect(starts.filter((x) => x >= s && x < s + 20)).toHaveLength(2);
    limiter.stop();
  });

  it('pauses every call on a 429 for Retry-After, then sends the refused one again', async () => {
    const paused: number[] = [];
    const limiter = createLimiter({
      requestsPerSecond: 1000,
      concurrency: 1,
      onPause: (ms) => paused.push(ms),
    });
    const remote = heldRemote();
    const fetch = limiter.wrap(remote.fetch);
    const calls = ['/a', '/b', '/c'].map((u) => fetch(u));
    await jest.advanceTimersByTimeAsync(0);
    remote.answer('/a', { status: 429, headers: new Map([['retry-after', '2']]) });
    await jest.advanceTimersByTimeAsync(1_999);
    expect(remote.sent).toEqual(['/a']);
    expect(paused).toEqual([2_000]);
    expect(limiter.stats()).toMatchObject({ pauses: 1, waiting: 3, pending: 0 });
    expect(limiter.stats().pausedUntil).not.toBeNull();
    await jest.advanceTimersByTimeAsync(1);
    // The refused call queues again behind the calls that were waiting.
    for (const u of ['/b', '/c', '/a']) {
      expect(remote.sent.at(-1)).toBe(u);
      remote.answer(u);
      await jest.advanceTimersByTimeAsync(1);
    }
    expect((await Promise.all(calls)).map((a) => a.status)).toEqual([200, 200, 200]);
    expect(limiter.stats()).toMatchObject({ pauses: 1, pausedUntil: null });
    limiter.stop();
  });

  it('waits 1 s after a 429 without a readable Retry-After, and gives the 429 after 5 retries', async () => {
    const limiter = createLimiter({ requestsPerSecond: 1000, concurrency: 1 });
    const sent: number[] = [];
    const fetch = limiter.wrap(async (_url: string) => {
      sent.push(Date.now());
      return { status: 429, headers: new Map([['retry-after', 'soon']]) };
    });
    const call = fetch('/x');
    await jest.advanceTimersByTimeAsync(999);
    expect(sent).toHaveLength(1);
    await jest.advanceTimersByTimeAsync(1);
    expect(sent).toHaveLength(2);
    await jest.advanceTimersByTimeAsync(4_000);
    expect(sent).toHaveLength(6);
    expect((await call).status).toBe(429);
    limiter.stop();
  });
});

describe('the queue', () => {
  it('keeps at most `concurrency` calls in flight and starts the next as one answers', async () => {
    const limiter = createLimiter({ requestsPerSecond: 1_000_000, concurrency: 2 });
    const remote = heldRemote();
    const fetch = limiter.wrap(remote.fetch);
    const calls = [1, 2, 3, 4, 5].map((i) => fetch(`/${i}`));
    await new Promise((r) => setImmediate(r));
    expect(remote.sent).toEqual(['/1', '/2']);
    expect(limiter.stats()).toMatchObject({ pending: 2, waiting: 3 });
    remote.answer('/2');
    await new Promise((r) => setImmediate(r));
    expect(remote.sent).toEqual(['/1', '/2', '/3']);
    while (remote.open.length) {
      remote.answer(remote.open[0].url);
      await new Promise((r) => setImmediate(r));
    }
    await Promise.all(calls);
    expect(remote.sent).toEqual(['/1', '/2', '/3', '/4', '/5']);
    limiter.stop();
  });

  it('runs the calls of the background lane after the pushes already waiting', async () => {
    const limiter = createLimiter({ requestsPerSecond: 1_000_000, concurrency: 1 });
    const order: string[] = [];
    const fetch = limiter.wrap(async (url: string) => {
      order.push(url);
      await new Promise((r) => setTimeout(r, 2));
      return ok();
    });
    const calls = [
      fetch('push-1'),
      limiter.background(() => fetch('page-1')),
      limiter.background(() => fetch('page-2')),
      fetch('push-2'),
      fetch('push-3'),
    ];
    await Promise.all(calls);
    limiter.stop();
    // push-1 had already left when the rest queued: the pages go last, in their own order.
    expect(order).toEqual(['push-1', 'push-2', 'push-3', 'page-1', 'page-2']);
  });

  it('tells a background call when it really left the queue', async () => {
    const limiter = createLimiter({ requestsPerSecond: 1_000_000, concurrency: 1 });
    const remote = heldRemote();
    const fetch = limiter.wrap(remote.fetch);
    const first = fetch('/push');
    const told: string[] = [];
    const page = limiter.background(
      () => fetch('/page'),
      () => told.push(remote.sent.join())
    );
    await new Promise((r) => setImmediate(r));
    expect(told).toEqual([]);
    remote.answer('/push');
    await first;
    await new Promise((r) => setImmediate(r));
    // Told as it left: /push had answered, /page was not yet on its way.
    expect(told).toEqual(['/push']);
    remote.answer('/page');
    await page;
    limiter.stop();
  });

  it('a call aborted while it waits is never sent, and says it was a wait, not a failure', async () => {
    const { limiter, remote, fetch, first, controller, waiting } = oneSentOneWaiting();
    const third = fetch('/third');
    controller.abort();
    const err = await waiting.catch((e: unknown) => e);
    expect(isRateLimitWait(err)).toBe(true);
    expect(isRateLimitWait(new Error('x', { cause: err }))).toBe(true);
    remote.answer('/first');
    await first;
    await new Promise((r) => setImmediate(r));
    remote.answer('/third');
    await third;
    expect(remote.sent).toEqual(['/first', '/third']);
    // Already aborted: refused before it queues.
    expect(
      isRateLimitWait(await fetch('/late', { signal: controller.signal }).catch((e) => e))
    ).toBe(true);
    limiter.stop();
  });

  it('stop() sends no waiting call, which still ends as a wait when its time runs out', async () => {
    const { limiter, remote, first, controller, waiting } = oneSentOneWaiting();
    await new Promise((r) => setImmediate(r));
    limiter.stop();
    remote.answer('/first');
    await first;
    await new Promise((r) => setImmediate(r));
    expect(remote.sent).toEqual(['/first']);
    controller.abort();
    expect(isRateLimitWait(await waiting.catch((e: unknown) => e))).toBe(true);
  });

  it('a 429 answered after stop() goes to its caller and does not start the queue again', async () => {
    jest.useFakeTimers();
    try {
      const { limiter, remote, first, controller, waiting } = oneSentOneWaiting();
      await jest.advanceTimersByTimeAsync(0);
      limiter.stop();
      remote.answer('/first', { status: 429, headers: new Map([['retry-after', '1']]) });
      expect((await first).status).toBe(429);
      await jest.advanceTimersByTimeAsync(5_000);
      expect(remote.sent).toEqual(['/first']);
      controller.abort();
      expect(isRateLimitWait(await waiting.catch((e: unknown) => e))).toBe(true);
    } finally {
      jest.useRealTimers();
    }
  });

  it('an abort after the call left is the call’s own failure, not a wait', async () => {
    const limiter = createLimiter({ requestsPerSecond: 1_000_000, concurrency: 1 });
    const controller = new AbortController();
    const fetch = limiter.wrap(
      (_url: string, init?: { signal?: AbortSignal }) =>
        new Promise<Answer>((_, reject) =>
          init?.signal?.addEventListener('abort', () => reject(new Error('aborted on the wire')))
        )
    );
    const call = fetch('/slow', { signal: controller.signal });
    await new Promise((r) => setImmediate(r));
    controller.abort();
    const err = await call.catch((e: unknown) => e);
    expect(isRateLimitWait(err)).toBe(false);
    limiter.stop();
  });
});
