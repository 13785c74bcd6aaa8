import { AsyncLocalStorage } from 'node:async_hooks';
import { type BatcherOptions, createBatcher } from '../../server/src/sync/shared/batcher';

const turn = () => new Promise((r) => setImmediate(r));

/** A batcher that answers each item with itself, and the runs it made. */
const echo = (options: BatcherOptions<number>) => {
  const runs: number[][] = [];
  const b = createBatcher(async (xs: number[]) => {
    runs.push(xs);
    return xs;
  }, options);
  return { b, runs };
};

describe('createBatcher', () => {
  it('runs the calls of one turn as one run and answers each caller in order', async () => {
    const runs: number[][] = [];
    const b = createBatcher(async (xs: number[]) => {
      runs.push(xs);
      return xs.map((x) => x * 10);
    });
    const answers = await Promise.all([1, 2, 3].map((x) => b.load(x)));
    expect(answers).toEqual([10, 20, 30]);
    expect(runs).toEqual([[1, 2, 3]]);
    expect(await b.load(4)).toBe(40);
    expect(runs).toEqual([[1, 2, 3], [4]]);
  });

  it('rejects every caller of a run that throws, and the next run works', async () => {
    let fail = true;
    const b = createBatcher(async (xs: number[]) => {
      if (fail) throw new Error('database is locked');
      return xs;
    });
    const settled = await Promise.allSettled([b.load(1), b.load(2)]);
    expect(settled.map((s) => s.status)).toEqual(['rejected', 'rejected']);
    expect((settled[0] as PromiseRejectedResult).reason.message).toBe('database is locked');
    fail = false;
    expect(await b.load(3)).toBe(3);
  });

  it('puts a repeated item in a later run, after the first one is done (one statement may not upsert a row twice)', async () => {
    const runs: string[][] = [];
    const b = createBatcher(
      async (xs: Array<{ key: string; v: number }>) => {
        runs.push(xs.map((x) => `${x.key}${x.v}`));
        await turn();
        return xs.map(() => undefined);
      },
      { keyOf: (x) => x.key }
    );
    await Promise.all([
      b.load({ key: 'a', v: 1 }),
      b.load({ key: 'b', v: 1 }),
      b.load({ key: 'a', v: 2 }),
      b.load({ key: 'a', v: 3 }),
    ]);
    expect(runs).toEqual([['a1', 'b1'], ['a2'], ['a3']]);
  });

  it('never runs more than maxSize items at once', async () => {
    const sizes: number[] = [];
    const b = createBatcher(
      async (xs: number[]) => {
        sizes.push(xs.length);
        return xs;
      },
      { maxSize: 4 }
    );
    const answers = await Promise.all(Array.from({ length: 10 }, (_, i) => b.load(i)));
    expect(answers).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(sizes).toEqual([4, 4, 2]);
  });

  // Fake timers (setImmediate kept real): whether a call waits for the window is read off the
  // timers it leaves, never off a wall clock a loaded machine may stall.
  const windowTimers = () =>
    jest.useFakeTimers({ doNotFake: ['setImmediate', 'nextTick', 'queueMicrotask'] });
  afterEach(() => jest.useRealTimers());

  it('with windowMs, gathers calls over a window while they keep coming, and runs a call after a quiet time at once', async () => {
    windowTimers();
    const { b, runs } = echo({ windowMs: 250 });
    const first = b.load(1); // quiet before: at once, no window
    expect(jest.getTimerCount()).toBe(0);
    await first;
    // Busy: calls spread over several turns share one run, at the end of the window.
    const pending = [b.load(2)];
    expect(jest.getTimerCount()).toBe(1);
    await turn();
    pending.push(b.load(3));
    await turn();
    pending.push(b.load(4));
    await turn();
    expect(runs).toEqual([[1]]);
    jest.advanceTimersByTime(250);
    await Promise.all(pending);
    expect(runs).toEqual([[1], [2, 3, 4]]);
    // Quiet again for longer than the window: at once.
    jest.advanceTimersByTime(300);
    const last = b.load(5);
    expect(jest.getTimerCount()).toBe(0);
    await last;
    expect(runs).toEqual([[1], [2, 3, 4], [5]]);
  });

  it('with fullAt, a window that gathered that many calls runs at once instead of waiting out its time', async () => {
    windowTimers();
    const { b, runs } = echo({ windowMs: 5_000, fullAt: 3 });
    await b.load(0); // quiet before: at once, and the window starts
    const pending = [b.load(1)];
    expect(jest.getTimerCount()).toBe(1);
    await turn();
    pending.push(b.load(2));
    await turn();
    pending.push(b.load(3), b.load(4));
    // The third call ended the window: its timer is gone, and the fourth went with them.
    expect(jest.getTimerCount()).toBe(0);
    await Promise.all(pending);
    expect(runs).toEqual([[0], [1, 2, 3, 4]]);
  });

  it("runs in the async context it was created in, not in a caller's (a caller's transaction stays its own)", async () => {
    const als = new AsyncLocalStorage<string>();
    const seen: Array<string | undefined> = [];
    const b = createBatcher(async (xs: number[]) => {
      seen.push(als.getStore());
      return xs;
    });
    await als.run('caller transaction', () => b.load(1));
    expect(seen).toEqual([undefined]);
  });
});
