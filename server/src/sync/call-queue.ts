/**
 * The queue under the rate limit: at most `concurrency` calls running, at most `perWindow` started
 * in any `windowMs` (a sliding window: no burst at the edge of a fixed one), the calls of the first
 * lane before those of the second, and nothing started while paused.
 *
 * A waiting call is one small record. A resync keeps a couple of hundred calls waiting for the
 * remote's few slots, for longer than V8's young generation keeps anything: with p-queue each one
 * held an options copy, a task symbol, three closures and an abort controller of the limiter's,
 * and all of it was promoted to the old generation (bench/HISTORY.md, thirteenth session).
 */
export interface CallQueueOptions {
  concurrency: number;
  perWindow: number;
  windowMs: number;
}

export interface CallOptions {
  /** the second lane: taken only when the first is empty */
  background?: boolean;
  /** aborted while the call waits: it leaves the queue, and run() rejects with the signal's reason */
  signal?: AbortSignal;
}

interface Waiting {
  start(): void;
  abort(): void;
  signal: AbortSignal | undefined;
}

export function createCallQueue(o: CallQueueOptions) {
  // FIFO lanes read from `heads`; a removed call leaves a hole that is skipped.
  const lanes: Array<Array<Waiting | undefined>> = [[], []];
  const heads = [0, 0];
  let size = 0;
  let running = 0;
  let paused = false;
  /** start times of the calls of the current window, oldest first from `first` */
  let starts: number[] = [];
  let first = 0;
  let windowTimer: NodeJS.Timeout | undefined;

  const startedInWindow = (now: number) => {
    while (first < starts.length && starts[first] <= now - o.windowMs) first++;
    if (first > 1_000 && first > starts.length / 2) {
      starts = starts.slice(first);
      first = 0;
    }
    return starts.length - first;
  };

  const take = (): Waiting | undefined => {
    for (let i = 0; i < lanes.length; i++) {
      const lane = lanes[i];
      while (heads[i] < lane.length) {
        const w = lane[heads[i]];
        lane[heads[i]++] = undefined;
        if (heads[i] === lane.length) {
          lane.length = 0;
          heads[i] = 0;
        }
        if (w) return w;
      }
    }
    return undefined;
  };

  const drain = () => {
    while (!paused && running < o.concurrency && size > 0) {
      const now = Date.now();
      if (startedInWindow(now) >= o.perWindow) {
        windowTimer ??= setTimeout(
          () => {
            windowTimer = undefined;
            drain();
          },
          Math.max(1, starts[first] + o.windowMs - now)
        );
        windowTimer.unref?.();
        return;
      }
      const w = take();
      if (!w) return;
      size--;
      running++;
      starts.push(now);
      w.signal?.removeEventListener('abort', w.abort);
      w.start();
    }
  };

  const finished = () => {
    running--;
    drain();
  };

  return {
    /** Runs `task` at its turn and answers what it answers. */
    run<T>(task: () => Promise<T>, options: CallOptions = {}): Promise<T> {
      const { signal } = options;
      return new Promise<T>((resolve, reject) => {
        if (signal?.aborted) return reject(signal.reason);
        const lane = lanes[options.background ? 1 : 0];
        const w: Waiting = {
          start: () => {
            let answer: Promise<T>;
            try {
              answer = task();
            } catch (err) {
              answer = Promise.reject(err);
            }
            answer.then(resolve, reject).finally(finished);
          },
          abort: () => {
            const i = lane.indexOf(w);
            if (i === -1) return;
            lane[i] = undefined;
            size--;
            reject(signal?.reason);
          },
          signal,
        };
        lane.push(w);
        size++;
        signal?.addEventListener('abort', w.abort, { once: true });
        drain();
      });
    },
    pause() {
      paused = true;
    },
    start() {
      paused = false;
      drain();
    },
    /** Drops the waiting calls (their run() never settles), as p-queue's clear() did. */
    clear() {
      for (let i = 0; i < lanes.length; i++) {
        for (const w of lanes[i]) w?.signal?.removeEventListener('abort', w.abort);
        lanes[i] = [];
        heads[i] = 0;
      }
      size = 0;
      clearTimeout(windowTimer);
      windowTimer = undefined;
    },
    get size() {
      return size;
    },
    get running() {
      return running;
    },
  };
}

export type CallQueue = ReturnType<typeof createCallQueue>;
