import { createCallQueue } from '../../server/src/sync/call-queue';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('the queue under the rate limit', () => {
  it('runs at most `concurrency` calls at once, and answers each with its own result', async () => {
    const queue = createCallQueue({ concurrency: 2, perWindow: 1_000, windowMs: 1_000 });
    let running = 0;
    let most = 0;
    const results = await Promise.all(
      [1, 2, 3, 4, 5, 6].map((n) =>
        queue.run(async () => {
          most = Math.max(most, ++running);
          await sleep(15);
          running--;
          return n * 10;
        })
      )
    );
    expect(results).toEqual([10, 20, 30, 40, 50, 60]);
    expect(most).toBe(2);
    expect(queue.running).toBe(0);
    expect(queue.size).toBe(0);
  });

  it('starts at most `perWindow` calls in any window of `windowMs`, without a burst at its edge', async () => {
    const queue = createCallQueue({ concurrency: 100, perWindow: 3, windowMs: 100 });
    const starts: number[] = [];
    const t0 = Date.now();
    await Promise.all(
      Array.from({ length: 9 }, () => queue.run(async () => starts.push(Date.now() - t0)))
    );
    // The queue dates a call from its turn; the call reads the clock a moment later, and on a busy
    // machine (a GC pause, another test file) that moment took a few ms: the first of a window seen
    // late made room for a fourth in CI. A window seen from inside the calls is those ms shorter.
    const jitterMs = 10;
    for (const s of starts) {
      const inWindow = starts.filter((x) => x >= s && x < s + 100 - jitterMs).length;
      expect(inWindow).toBeLessThanOrEqual(3);
    }
    // Three windows: the last three start 200 ms after the first three at the earliest.
    expect(Math.max(...starts)).toBeGreaterThanOrEqual(195);
  });

  it('takes the first lane before the second', async () => {
    const queue = createCallQueue({ concurrency: 1, perWindow: 1_000, windowMs: 1_000 });
    const order: string[] = [];
    const call = (name: string, background = false) =>
      queue.run(
        async () => {
          order.push(name);
          await sleep(2);
        },
        { background }
      );
    await Promise.all([call('a'), call('bg1', true), call('b'), call('bg2', true), call('c')]);
    expect(order).toEqual(['a', 'b', 'c', 'bg1', 'bg2']);
  });

  it('a call aborted while it waits leaves the queue with the reason, and is never run', async () => {
    const queue = createCallQueue({ concurrency: 1, perWindow: 1_000, windowMs: 1_000 });
    const ran: string[] = [];
    const first = queue.run(async () => {
      ran.push('first');
      await sleep(30);
    });
    const controller = new AbortController();
    const second = queue.run(async () => ran.push('second'), { signal: controller.signal });
    const third = queue.run(async () => ran.push('third'));
    expect(queue.size).toBe(2);
    controller.abort(new Error('gave up'));
    expect(queue.size).toBe(1);
    await expect(second).rejects.toThrow('gave up');
    await first;
    await third;
    expect(ran).toEqual(['first', 'third']);
    // Already aborted: refused at once.
    await expect(
      queue.run(async () => ran.push('late'), { signal: controller.signal })
    ).rejects.toThrow('gave up');
    expect(ran).toEqual(['first', 'third']);
  });

  it('an abort after the call started changes nothing: the call answers for itself', async () => {
    const queue = createCallQueue({ concurrency: 1, perWindow: 1_000, windowMs: 1_000 });
    const controller = new AbortController();
    const call = queue.run(
      async () => {
        await sleep(20);
        return 'answered';
      },
      { signal: controller.signal }
    );
    await sleep(5);
    controller.abort(new Error('too late'));
    await expect(call).resolves.toBe('answered');
  });

  it('starts nothing while paused, and the waiting calls go on once started again', async () => {
    const queue = createCallQueue({ concurrency: 4, perWindow: 1_000, windowMs: 1_000 });
    queue.pause();
    let ran = 0;
    const calls = [1, 2, 3].map(() => queue.run(async () => ran++));
    await sleep(30);
    expect(ran).toBe(0);
    expect(queue.size).toBe(3);
    queue.start();
    await Promise.all(calls);
    expect(ran).toBe(3);
  });

  it('a call that throws, even before its first await, frees its place', async () => {
    const queue = createCallQueue({ concurrency: 1, perWindow: 1_000, windowMs: 1_000 });
    const failing = queue.run((): Promise<number> => {
      throw new Error('at once');
    });
    const next = queue.run(async () => 2);
    await expect(failing).rejects.toThrow('at once');
    await expect(next).resolves.toBe(2);
    expect(queue.running).toBe(0);
  });

  it('clear() drops the waiting calls and the next ones still run', async () => {
    const queue = createCallQueue({ concurrency: 1, perWindow: 1_000, windowMs: 1_000 });
    const ran: string[] = [];
    const first = queue.run(async () => {
      ran.push('first');
      await sleep(10);
    });
    void queue.run(async () => ran.push('dropped'));
    queue.clear();
    expect(queue.size).toBe(0);
    await first;
    await queue.run(async () => ran.push('after'));
    expect(ran).toEqual(['first', 'after']);
  });
});
