import { AsyncResource } from 'node:async_hooks';

export interface BatcherOptions<K> {
  /** most items in one run; the rest go to the next, started at once */
  maxSize?: number;
  /** items that must not share a run (e.g. two upserts of one row, which PostgreSQL refuses in one statement) */
  keyOf?: (item: K) => string;
  /** while calls keep coming (the last run was less than this long ago), wait this long to gather more */
  windowMs?: number;
  /** items that end a window at once (a busy resync then writes as soon as it has this many) */
  fullAt?: number;
}

/** The writes made as pushes finish, while busy: ~30 rows per statement at 50 ms (bench:latency). */
export const BUSY_WRITES = { windowMs: 200, fullAt: 50 } satisfies BatcherOptions<unknown>;

/**
 * Runs the calls of one turn of the event loop as one: pushes side by side issue the same queries
 * at the same moments, and one statement for fifty rows costs about what one for one row does.
 * `run` answers one result per item, in order, or throws for all. Runs start in the batcher's
 * async context: a caller inside a transaction must not drag other callers' work into it.
 */
export function createBatcher<K, V>(
  run: (items: K[]) => Promise<V[]>,
  options: BatcherOptions<K> = {}
) {
  const maxSize = options.maxSize ?? 200;
  const fullAt = Math.min(maxSize, options.fullAt ?? maxSize);
  type Waiting = { item: K; resolve: (v: V) => void; reject: (e: unknown) => void };
  let waiting: Waiting[] = [];
  let scheduled = false;
  let timer: NodeJS.Timeout | undefined;
  let lastRunAt = 0;

  const flush = AsyncResource.bind(() => {
    scheduled = false;
    clearTimeout(timer);
    timer = undefined;
    lastRunAt = Date.now();
    const slice: Waiting[] = [];
    const rest: Waiting[] = [];
    const seen = new Set<string>();
    for (const w of waiting) {
      const key = options.keyOf?.(w.item);
      if (slice.length >= maxSize || (key !== undefined && seen.has(key))) rest.push(w);
      else {
        if (key !== undefined) seen.add(key);
        slice.push(w);
      }
    }
    waiting = [];
    // What did not fit (or repeats an item of this run) goes after this run, so order is kept.
    void run(slice.map((w) => w.item))
      .then(
        (results) => slice.forEach((w, i) => w.resolve(results[i])),
        (err) => slice.forEach((w) => w.reject(err))
      )
      .then(() => {
        if (!rest.length) return;
        waiting.unshift(...rest);
        schedule();
      });
  });

  const schedule = () => {
    if (scheduled) {
      // A window that gathered a full batch need not wait out its time.
      if (timer && waiting.length >= fullAt) {
        clearTimeout(timer);
        timer = undefined;
        setImmediate(flush);
      }
      return;
    }
    scheduled = true;
    const windowMs = options.windowMs ?? 0;
    if (windowMs > 0 && Date.now() - lastRunAt < windowMs && waiting.length < fullAt)
      timer = setTimeout(flush, windowMs);
    else setImmediate(flush);
  };

  return {
    load(item: K): Promise<V> {
      return new Promise<V>((resolve, reject) => {
        waiting.push({ item, resolve, reject });
        schedule();
      });
    },
  };
}

/** Items by key, in their order (a batch is split by content type and locale, by statement shape...). */
export function groupBy<T>(items: Iterable<T>, keyOf: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const key = keyOf(item);
    const group = groups.get(key);
    if (group) group.push(item);
    else groups.set(key, [item]);
  }
  return groups;
}
