import { createIntentBuffer } from '../../server/src/sync/outbox/intents';
import type { EnqueueItem } from '../../server/src/sync/outbox';

const settle = { settleMs: 300, maxWaitMs: 5000 };
const item = (documentId: string, extra: Partial<EnqueueItem> = {}): EnqueueItem => ({
  contentType: 'api::icon.icon',
  documentId,
  locale: '',
  resource: 'category',
  reason: 'update',
  settle,
  ...extra,
});

/** A buffer on a clock the test moves, writing into `writes`. */
function setup(opts: { fail?: () => boolean; windowMs?: number } = {}) {
  let clock = 1_000_000;
  const writes: EnqueueItem[][] = [];
  const wakes: Array<{ leading: boolean; nextDueAt: number | null }> = [];
  const logs: string[] = [];
  const buffer = createIntentBuffer({
    write: async (items) => {
      if (opts.fail?.()) throw new Error('database is locked');
      writes.push(items);
    },
    written: (info) => wakes.push(info),
    windowMs: () => opts.windowMs ?? 50,
    retryMs: 20,
    log: (m) => logs.push(m),
    now: () => clock,
  });
  return { buffer, writes, wakes, logs, tick: (ms: number) => (clock += ms), now: () => clock };
}

const nextTurn = () => new Promise((r) => setImmediate(r));
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
afterEach(() => jest.useRealTimers());

describe('intent buffer', () => {
  it('writes a lone change at the next turn of the event loop and wakes the worker at once', async () => {
    const { buffer, writes, wakes } = setup();
    buffer.add([item('a', { leading: true })]);
    expect(writes).toHaveLength(0);
    expect(buffer.has({ contentType: 'api::icon.icon', documentId: 'a', locale: '' })).toBe(true);
    await nextTurn();
    await nextTurn();
    expect(writes).toHaveLength(1);
    expect(writes[0][0]).toMatchObject({ documentId: 'a', leading: true });
    expect(wakes).toEqual([{ leading: true, nextDueAt: null }]);
    expect(buffer.size()).toBe(0);
  });

  it('coalesces a burst of one entry into one row, due settleMs after its last change', async () => {
    const { buffer, writes, wakes, tick, now } = setup();
    const start = now();
    for (let i = 0; i < 20; i++) {
      buffer.add([item('a', { reason: `update ${i}` })]);
      tick(2);
    }
    const last = now() - 2;
    expect(await buffer.flush()).toBe(true);
    expect(writes).toHaveLength(1);
    expect(writes[0]).toHaveLength(1);
    const [row] = writes[0];
    expect(row.reason).toBe('update 19');
    expect(row.leading).toBeUndefined();
    // The outbox computes dueAt = now + settleMs and settleBy = now + maxWaitMs: the same instants
    // as if each change had been written when it happened.
    expect(now() + row.settle!.settleMs).toBe(last + settle.settleMs);
    expect(now() + row.settle!.maxWaitMs).toBe(start + settle.maxWaitMs);
    expect(wakes).toEqual([{ leading: false, nextDueAt: last + settle.settleMs }]);
  });

  it('writes a burst within its window, several entries in one write', async () => {
    const { buffer, writes } = setup({ windowMs: 30 });
    buffer.add([item('a')]);
    buffer.add([item('b'), item('c')]);
    await nextTurn();
    expect(writes).toHaveLength(0);
    await sleep(60);
    expect(writes).toHaveLength(1);
    expect(writes[0].map((i) => i.documentId).sort()).toEqual(['a', 'b', 'c']);
  });

  it('keeps a lone change due at once when more changes of the entry follow before the write', async () => {
    const { buffer, writes, wakes } = setup();
    buffer.add([item('a', { leading: true })]);
    buffer.add([item('a', { reason: 'publish' })]);
    await buffer.flush();
    expect(writes[0]).toEqual([
      expect.objectContaining({ documentId: 'a', leading: true, reason: 'publish' }),
    ]);
    expect(wakes[0].leading).toBe(true);
  });

  it('keeps intents whose write failed and writes them later, merged with newer ones', async () => {
    let failing = true;
    const { buffer, writes, logs } = setup({ fail: () => failing });
    buffer.add([item('a')]);
    expect(await buffer.flush()).toBe(false);
    expect(logs[0]).toMatch(/database is locked/);
    expect(buffer.size()).toBe(1);
    buffer.add([item('a', { reason: 'later' }), item('b')]);
    failing = false;
    await sleep(60);
    expect(buffer.size()).toBe(0);
    expect(writes).toHaveLength(1);
    expect(writes[0].map((i) => `${i.documentId}:${i.reason}`).sort()).toEqual([
      'a:later',
      'b:update',
    ]);
  });

  it('flush() waits for a write in progress, then writes what came meanwhile', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const writes: string[][] = [];
    const buffer = createIntentBuffer({
      write: async (items) => {
        if (!writes.length) await gate;
        writes.push(items.map((i) => i.documentId));
      },
      written: () => undefined,
      windowMs: () => 50,
      log: () => undefined,
    });
    buffer.add([item('a')]);
    const first = buffer.flush();
    buffer.add([item('b')]);
    const second = buffer.flush();
    release();
    expect(await first).toBe(true);
    expect(await second).toBe(true);
    expect(writes).toEqual([['a'], ['b']]);
    buffer.stop();
  });

  it('a failure episode: backs off to its cap, logs one line without the statement, reports it, then one line when it ends', async () => {
    // Fake timers: the backoff is counted in timer time, so a stalled machine cannot skip tries.
    jest.useFakeTimers({ doNotFake: ['setImmediate', 'nextTick', 'queueMicrotask'] });
    let failing = true;
    const attempts: number[] = [];
    const logs: string[] = [];
    const writes: EnqueueItem[][] = [];
    const buffer = createIntentBuffer({
      write: async (items) => {
        attempts.push(Date.now());
        if (failing) {
          // As knex reports a failed statement: the SQL and its values, then the database's message.
          throw Object.assign(
            new Error(
              "insert into `location_content_outbox` (`reason`) values ('secret title') - Unknown column 'excluded.operation' in 'SELECT'"
            ),
            { code: 'ER_BAD_FIELD_ERROR' }
          );
        }
        writes.push(items);
      },
      written: () => undefined,
      windowMs: () => 10,
      retryMs: 10,
      retryMaxMs: 80,
      log: (m) => logs.push(m),
    });
    buffer.add([item('a', { settle: undefined })]);
    await jest.advanceTimersByTimeAsync(600);
    // Saves during the episode wait for the backoff instead of forcing a write each.
    for (let i = 0; i < 50; i++) buffer.add([item(`n${i}`, { settle: undefined })]);
    await jest.advanceTimersByTimeAsync(200);
    const gaps = attempts.slice(1).map((t, i) => t - attempts[i]);
    // 10, 20, 40, 80, 80, ...: a handful of tries, not one per save nor one per 10 ms.
    expect(attempts.length).toBeGreaterThan(4);
    expect(attempts.length).toBeLessThan(20);
    expect(Math.max(...gaps)).toBeGreaterThanOrEqual(70);
    expect(logs).toHaveLength(1);
    expect(logs[0]).toMatch(
      /^changes cannot be recorded: ER_BAD_FIELD_ERROR: Unknown column 'excluded.operation' in 'SELECT'; 1 waiting/
    );
    expect(logs[0]).not.toMatch(/insert into|secret title/);
    const failure = buffer.failure()!;
    expect(failure.reason).toBe(
      "ER_BAD_FIELD_ERROR: Unknown column 'excluded.operation' in 'SELECT'"
    );
    expect(failure.waiting).toBe(51);
    expect(new Date(failure.since).getTime()).toBeLessThanOrEqual(attempts[0]);
    failing = false;
    await jest.advanceTimersByTimeAsync(200);
    expect(buffer.failure()).toBeNull();
    expect(
      writes
        .flat()
        .map((i) => i.documentId)
        .sort()
    ).toEqual(['a', ...Array.from({ length: 50 }, (_, i) => `n${i}`)].sort());
    expect(logs).toHaveLength(2);
    expect(logs[1]).toMatch(/^changes are recorded again \(51 written after \d+ s\)/);
    buffer.stop();
  });

  describe('a flush asked for during a failure (a status read, polled by the dashboard)', () => {
    /** A buffer on fake timers whose writes fail until `recover()`, a first write failed at `start`. */
    async function failingBuffer() {
      jest.useFakeTimers({ doNotFake: ['setImmediate', 'nextTick', 'queueMicrotask'] });
      let failing = true;
      const attempts: number[] = [];
      const buffer = createIntentBuffer({
        write: async () => {
          attempts.push(Date.now());
          if (failing) throw new Error('SQLITE_BUSY: database is locked');
        },
        written: () => undefined,
        windowMs: () => 10,
        retryMs: 100,
        retryMaxMs: 60_000,
        log: () => undefined,
      });
      const start = Date.now();
      buffer.add([item('a', { settle: undefined })]);
      await jest.advanceTimersByTimeAsync(0);
      return { buffer, attempts, start, recover: () => (failing = false) };
    }

    it("tries the write but leaves the retry's backoff as it was", async () => {
      const { buffer, attempts, start, recover } = await failingBuffer();
      await jest.advanceTimersByTimeAsync(100);
      // Two failures of its own: the next retry is 200 ms after the second.
      expect(attempts.map((t) => t - start)).toEqual([0, 100]);
      // Five polls meanwhile, each one trying (and failing) too.
      for (let i = 0; i < 5; i++) {
        await jest.advanceTimersByTimeAsync(20);
        expect(await buffer.flush()).toBe(false);
      }
      expect(attempts).toHaveLength(7);
      recover();
      await jest.advanceTimersByTimeAsync(100);
      expect(buffer.size()).toBe(0);
      expect(attempts[attempts.length - 1] - start).toBe(300);
      expect(buffer.failure()).toBeNull();
      buffer.stop();
    });

    it('that succeeds ends the episode and drops the retry', async () => {
      const { buffer, attempts, recover } = await failingBuffer();
      expect(attempts).toHaveLength(1);
      recover();
      expect(await buffer.flush()).toBe(true);
      expect(buffer.failure()).toBeNull();
      await jest.advanceTimersByTimeAsync(1000);
      expect(attempts).toHaveLength(2);
      buffer.stop();
    });
  });

  it('while failing, keeps at most maxWaiting entries, every change of those kept, and says how many others were dropped', async () => {
    let failing = true;
    const logs: string[] = [];
    const buffer = createIntentBuffer({
      write: async () => {
        if (failing) throw new Error('connect ECONNREFUSED 127.0.0.1:3306');
      },
      written: () => undefined,
      windowMs: () => 10,
      retryMs: 1000,
      maxWaiting: 3,
      log: (m) => logs.push(m),
    });
    buffer.add([item('a', { settle: undefined }), item('b', { settle: undefined })]);
    expect(await buffer.flush()).toBe(false);
    buffer.add([item('c'), item('d'), item('e'), item('a', { reason: 'again' })]);
    expect(buffer.size()).toBe(3);
    expect(buffer.failure()).toMatchObject({ waiting: 3, dropped: 2 });
    expect(logs.filter((l) => /not kept/.test(l))).toHaveLength(1);
    failing = false;
    expect(await buffer.flush()).toBe(true);
    expect(logs[logs.length - 1]).toMatch(/2 not kept: run a resync/);
    buffer.stop();
  });
});
