import type { RecordingFailure } from '../../../../shared/contracts/sync';
import { AsyncResource } from 'node:async_hooks';
import { reasonOf } from '../shared/db-error';
import { keyString } from '../shared/keys';
import type { EnqueueItem } from '.';
import { extend } from '../../utils/objects';

interface IntentBufferOptions {
  /** writes intents to the outbox (one multi-row upsert) */
  write: (items: EnqueueItem[]) => Promise<void>;
  /** After a write: `leading` when a lone change was in it (the worker runs at once), else when the first row is due. */
  written: (info: { leading: boolean; nextDueAt: number | null }) => void;
  /** how long a change that follows another one of its entry may wait in memory */
  windowMs: () => number;
  /** wait after a failed write; doubles on each failure in a row, up to `retryMaxMs` */
  retryMs?: number;
  retryMaxMs?: number;
  /** distinct entries kept in memory while the outbox cannot be written; changes of others past it are dropped */
  maxWaiting?: number;
  log: (message: string) => void;
  /** the outbox can be written again (default: `log`) */
  recovered?: (message: string) => void;
  now?: () => number;
}

/** An entry's latest intent, with its first and last change seen since the last write. */
type Buffered = { item: EnqueueItem; first: number; last: number; leading: boolean };

/**
 * Editors' intents wait here instead of costing the save an outbox write: a lone change is written
 * at the next turn of the event loop, a burst's within a short window (one multi-row upsert). What
 * a crash loses meanwhile is picked up at the next boot (catchup.ts).
 */
export function createIntentBuffer(o: IntentBufferOptions) {
  const now = o.now ?? Date.now;
  const pending = new Map<string, Buffered>();
  let timer: NodeJS.Timeout | undefined;
  let timerAt = Infinity;
  let immediate: NodeJS.Immediate | undefined;
  let flushing: Promise<boolean> | undefined;
  const retryMs = o.retryMs ?? 1000;
  const retryMaxMs = Math.max(retryMs, o.retryMaxMs ?? 30_000);
  const maxWaiting = o.maxWaiting ?? 100_000;
  // The failure episode going on: one log line when it begins, one when it ends.
  let failing: { reason: string; since: number; failures: number } | undefined;
  let dropped = 0;
  // Timers bound to the context the buffer was made in, not to an editor's request (or its
  // transaction): the write must never run inside, or keep alive, the caller's context.
  const run = AsyncResource.bind(() => {
    cancelTimers();
    void flush(true);
  });

  const cancelTimers = () => {
    clearTimeout(timer);
    timer = undefined;
    timerAt = Infinity;
    if (immediate) clearImmediate(immediate);
    immediate = undefined;
  };

  const scheduleNow = () => {
    immediate ??= setImmediate(run);
    immediate.unref?.();
  };

  const scheduleIn = (ms: number) => {
    const at = now() + ms;
    if (timer && timerAt <= at) return;
    clearTimeout(timer);
    timerAt = at;
    timer = setTimeout(run, ms);
    timer.unref?.();
  };

  /** `held`: back from a failed write, kept whatever the bound */
  const merge = (key: string, b: Buffered, held = false) => {
    const known = pending.get(key);
    if (!known) {
      if (!held && failing && pending.size >= maxWaiting) {
        if (!dropped)
          o.log(
            `more than ${maxWaiting} entries changed while changes cannot be recorded: the changes of others are not kept (a resync recovers them)`
          );
        dropped++;
        return;
      }
      pending.set(key, b);
      return;
    }
    if (b.last >= known.last) known.item = b.item;
    known.first = Math.min(known.first, b.first);
    known.last = Math.max(known.last, b.last);
    known.leading = known.leading || b.leading;
  };

  /** Records intents (after the change committed); never throws, never waits for the database. */
  const add = (items: EnqueueItem[]) => {
    const at = now();
    let leading = false;
    for (const { leading: lead, ...item } of items) {
      const alone = Boolean(lead) || !item.settle;
      leading ||= alone;
      merge(keyString(item), { item, first: at, last: at, leading: alone });
    }
    // While the outbox cannot be written, the retry's backoff decides.
    if (failing) return;
    if (leading) scheduleNow();
    else scheduleIn(Math.max(0, o.windowMs()));
  };

  /** As the outbox would have it had each change been written when it happened. */
  const toItem = (b: Buffered, at: number): EnqueueItem => {
    const { settle } = b.item;
    if (!settle) return b.item;
    const maxWaitMs = Math.max(0, b.first + Math.max(settle.maxWaitMs, settle.settleMs) - at);
    const settleMs = b.leading ? settle.settleMs : Math.max(0, b.last + settle.settleMs - at);
    const paced = { settleMs, maxWaitMs };
    return extend(b.item, b.leading ? { leading: true, settle: paced } : { settle: paced });
  };

  const backoffMs = (failures: number) =>
    Math.min(retryMaxMs, retryMs * 2 ** Math.min(20, failures - 1));

  /**
   * Writes what is buffered; false when the write failed (the intents stay buffered). Never throws.
   * `own`: the buffer's timer. Another caller's try during a failure (a status read, polled by the
   * dashboard) neither counts in the backoff nor moves the retry.
   */
  const flush = async (own = false): Promise<boolean> => {
    if (flushing) {
      const ok = await flushing;
      return ok && pending.size ? flush(own) : ok;
    }
    if (!pending.size) return true;
    const outside = !own && failing !== undefined;
    if (!outside) cancelTimers();
    const batch = [...pending.entries()];
    pending.clear();
    const at = now();
    const items = batch.map(([, b]) => toItem(b, at));
    flushing = (async () => {
      try {
        await o.write(items);
      } catch (err) {
        // Back into the buffer (merged with anything newer, never dropped) and tried again later and later.
        const reason = reasonOf(err);
        const first = !failing;
        failing = {
          reason,
          since: failing?.since ?? at,
          failures: (failing?.failures ?? 0) + (outside ? 0 : 1),
        };
        for (const [key, b] of batch) merge(key, b, true);
        if (first)
          o.log(
            `changes cannot be recorded: ${reason}; ${pending.size} waiting in memory, trying again (every ${retryMaxMs / 1000} s at most)`
          );
        // An outside try keeps the retry where it is (or makes it, when it failed while the retry waited for it).
        scheduleIn(backoffMs(failing.failures));
        return false;
      }
      if (failing) {
        if (outside) cancelTimers();
        (o.recovered ?? o.log)(
          `changes are recorded again (${items.length} written after ${Math.round((now() - failing.since) / 1000)} s${dropped ? `; ${dropped} not kept: run a resync` : ''})`
        );
        failing = undefined;
        dropped = 0;
        // Changes recorded during this write were not scheduled (the episode was still on).
        if (pending.size) scheduleNow();
      }
      let leading = false;
      let nextDueAt: number | null = null;
      for (const it of items) {
        if (it.leading || !it.settle) leading = true;
        else nextDueAt = Math.min(nextDueAt ?? Infinity, at + it.settle.settleMs);
      }
      try {
        o.written({ leading, nextDueAt });
      } catch {
        // waking the worker is best effort: its poll finds the rows anyway
      }
      return true;
    })().finally(() => {
      flushing = undefined;
    });
    return flushing;
  };

  return {
    add,
    flush: () => flush(),
    /** true while a change of this entry waits to be written */
    has: (key: { contentType: string; documentId: string; locale: string }) =>
      pending.has(keyString(key)),
    size: () => pending.size,
    /** the outbox write failing now, or null */
    failure: (): RecordingFailure | null =>
      failing
        ? {
            reason: failing.reason,
            since: new Date(failing.since).toISOString(),
            waiting: pending.size,
            dropped,
          }
        : null,
    /** drops timers (the buffer must have been flushed first) */
    stop: cancelTimers,
  };
}
