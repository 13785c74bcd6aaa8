import { AsyncResource } from 'node:async_hooks';
import { keyString } from './keys';
import type { EnqueueItem } from './outbox';

export interface IntentBufferOptions {
  /** writes intents to the outbox (one multi-row upsert) */
  write: (items: EnqueueItem[]) => Promise<void>;
  /**
   * After a write: `leading` when a lone change was in it (the worker must run at once),
   * else `nextDueAt`, when the first of the written rows becomes due.
   */
  written: (info: { leading: boolean; nextDueAt: number | null }) => void;
  /** how long a change that follows another one of its entry may wait in memory */
  windowMs: () => number;
  /** wait before writing again after a failed write */
  retryMs?: number;
  log: (message: string) => void;
  now?: () => number;
}

interface Buffered {
  item: EnqueueItem;
  /** first and last change of the entry seen since the last write */
  first: number;
  last: number;
  leading: boolean;
}

/**
 * Editors' intents wait here for a moment instead of costing the save an outbox write:
 * a lone change is written at the next turn of the event loop (and the worker woken), a
 * change in a burst within a short window, so a burst of saves costs one multi-row upsert,
 * not one per save. Nothing here is durable: what a crash loses in that window is picked up
 * at the next boot (catchup.ts).
 */
export function createIntentBuffer(o: IntentBufferOptions) {
  const now = o.now ?? Date.now;
  const pending = new Map<string, Buffered>();
  let timer: NodeJS.Timeout | undefined;
  let timerAt = Infinity;
  let immediate: NodeJS.Immediate | undefined;
  let flushing: Promise<boolean> | undefined;
  // Timers bound to the context the buffer was made in, not to an editor's request (or its
  // transaction): the write must never run inside, or keep alive, the caller's context.
  const resource = new AsyncResource('location-content-intents');
  const run = resource.bind(() => {
    void flush();
  });

  const cancelTimers = () => {
    clearTimeout(timer);
    timer = undefined;
    timerAt = Infinity;
    if (immediate) clearImmediate(immediate);
    immediate = undefined;
  };

  const scheduleNow = () => {
    if (immediate) return;
    immediate = setImmediate(() => {
      immediate = undefined;
      run();
    });
    immediate.unref?.();
  };

  const scheduleIn = (ms: number) => {
    const at = now() + ms;
    if (timer && timerAt <= at) return;
    clearTimeout(timer);
    timerAt = at;
    timer = setTimeout(() => {
      timer = undefined;
      timerAt = Infinity;
      run();
    }, ms);
    timer.unref?.();
  };

  const merge = (key: string, b: Buffered) => {
    const known = pending.get(key);
    if (!known) {
      pending.set(key, b);
      return;
    }
    // The latest change's reason, the earliest start of the burst, the latest change.
    if (b.last >= known.last) known.item = b.item;
    known.first = Math.min(known.first, b.first);
    known.last = Math.max(known.last, b.last);
    known.leading = known.leading || b.leading;
  };

  /** Records intents (after the change committed); never throws, never waits for the database. */
  const add = (items: EnqueueItem[]) => {
    if (!items.length) return;
    const at = now();
    let leading = false;
    for (const it of items) {
      const { leading: lead, ...item } = it;
      leading = leading || Boolean(lead) || !it.settle;
      merge(keyString(it), { item, first: at, last: at, leading: Boolean(lead) || !it.settle });
    }
    if (leading) scheduleNow();
    else scheduleIn(Math.max(0, o.windowMs()));
  };

  /**
   * As the outbox would have it had each change been written when it happened: a settling
   * row is due `settleMs` after the last change, and never later than `maxWaitMs` after the first.
   */
  const toItem = (b: Buffered, at: number): EnqueueItem => {
    const { settle } = b.item;
    if (!settle) return b.item;
    const maxWaitMs = Math.max(0, b.first + Math.max(settle.maxWaitMs, settle.settleMs) - at);
    if (b.leading) return { ...b.item, leading: true, settle: { settleMs: settle.settleMs, maxWaitMs } };
    return { ...b.item, settle: { settleMs: Math.max(0, b.last + settle.settleMs - at), maxWaitMs } };
  };

  /** Writes what is buffered; false when the write failed (the intents stay buffered). Never throws. */
  const flush = async (): Promise<boolean> => {
    if (flushing) {
      const ok = await flushing;
      return ok && pending.size ? flush() : ok;
    }
    if (!pending.size) return true;
    cancelTimers();
    const batch = [...pending.entries()];
    pending.clear();
    const at = now();
    const items = batch.map(([, b]) => toItem(b, at));
    flushing = (async () => {
      try {
        await o.write(items);
      } catch (err: any) {
        // Back into the buffer (merged with anything newer) and tried again shortly.
        for (const [key, b] of batch) merge(key, b);
        o.log(`could not queue ${batch.length} change(s), trying again: ${err?.message ?? err}`);
        scheduleIn(o.retryMs ?? 1000);
        return false;
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
    })();
    try {
      return await flushing;
    } finally {
      flushing = undefined;
    }
  };

  return {
    add,
    flush,
    /** true while a change of this entry waits to be written */
    has: (key: { contentType: string; documentId: string; locale: string }) => pending.has(keyString(key)),
    size: () => pending.size,
    /** drops timers (the buffer must have been flushed first) */
    stop: cancelTimers,
  };
}

export type IntentBuffer = ReturnType<typeof createIntentBuffer>;
