import { STATUS_CODES } from 'node:http';
import { Worker } from 'node:worker_threads';
import { headerReader } from './http-fetch';
import { retryAfterMs } from './retry-after';
import type { FetchInitLike, FetchLike, FetchResponseLike } from './transport';

/**
 * Main thread → I/O thread. `req` waits in the thread until one of its `concurrency` slots is
 * free; `cancel` takes it back (or aborts it on the wire); `pause` holds every call not yet sent.
 */
type ToThread =
  | {
      t: 'req';
      id: number;
      url: string;
      method: string;
      headers: Record<string, string>;
      body?: string;
    }
  | { t: 'cancel'; id: number }
  | { t: 'pause'; until: number };

/** I/O thread → main thread: the whole answer, or why there is none (`sent`: it left). */
type FromThread =
  | {
      t: 'res';
      id: number;
      status: number;
      headers: Record<string, string | string[] | undefined>;
      text: string;
    }
  | { t: 'err'; id: number; sent: boolean; message: string; code?: string; name?: string };

/**
 * The thread's whole program, started from its own source text: it may use nothing of this
 * module but what `load` (the thread's `require`) gives it.
 */
function ioThread(load: (id: string) => unknown, retryAfter: typeof retryAfterMs) {
  const wt = load('node:worker_threads') as typeof import('node:worker_threads');
  const http = load('node:http') as typeof import('node:http');
  const https = load('node:https') as typeof import('node:https');
  const port = wt.parentPort!;
  const concurrency = (wt.workerData as { concurrency: number }).concurrency;
  // Reused sockets avoid a TLS handshake per call when a resync pushes thousands of objects.
  const agents = {
    'http:': new http.Agent({ keepAlive: true, maxSockets: 16 }),
    'https:': new https.Agent({ keepAlive: true, maxSockets: 16 }),
  };
  type Req = Extract<ToThread, { t: 'req' }>;
  const waiting: Req[] = [];
  const active = new Map<number, import('node:http').ClientRequest>();
  let pausedUntil = 0;
  let resumeTimer: NodeJS.Timeout | undefined;
  const post = (m: FromThread) => port.postMessage(m);
  const failure = (id: number, sent: boolean, e: unknown): FromThread => {
    const err = e as { message?: string; code?: unknown; name?: string };
    return {
      t: 'err',
      id,
      sent,
      message: String(err?.message ?? e),
      code: typeof err?.code === 'string' ? err.code : undefined,
      name: err?.name,
    };
  };

  const pump = () => {
    const wait = pausedUntil - Date.now();
    if (wait > 0) {
      if (!resumeTimer)
        resumeTimer = setTimeout(() => {
          resumeTimer = undefined;
          pump();
        }, wait);
      return;
    }
    while (active.size < concurrency && waiting.length) start(waiting.shift()!);
  };

  const start = (r: Req) => {
    const url = new URL(r.url);
    const mod = url.protocol === 'https:' ? https : http;
    let done = false;
    // The slot is given to the next call before the answer goes back: the main thread may be busy.
    const finish = (m: FromThread) => {
      if (done) return;
      done = true;
      active.delete(r.id);
      pump();
      post(m);
    };
    // node:http sends no length for a DELETE's body on its own (the list membership removal has one).
    const headers =
      r.body === undefined
        ? r.headers
        : // Not { ...spread, more }: see utils/objects.ts (this thread's source imports nothing of the plugin).
          Object.assign({}, r.headers, { 'Content-Length': String(Buffer.byteLength(r.body)) });
    const req = mod.request(
      url,
      { method: r.method, headers, agent: agents[url.protocol as 'http:'] },
      (res) => {
        res.setEncoding('utf8');
        let text = '';
        res.on('data', (chunk: string) => (text += chunk));
        // The calls waiting here would be refused too: they wait as asked, before the main thread knows.
        if (res.statusCode === 429) {
          const header = res.headers['retry-after'];
          pausedUntil = Math.max(pausedUntil, Date.now() + retryAfter(header && String(header)));
        }
        res.on('end', () =>
          finish({ t: 'res', id: r.id, status: res.statusCode ?? 0, headers: res.headers, text })
        );
        res.on('error', (e) => finish(failure(r.id, true, e)));
        // A body cut short is an error, never a shorter text.
        res.on('close', () => {
          if (!res.complete)
            finish(
              failure(r.id, true, Object.assign(new Error('aborted'), { code: 'ECONNRESET' }))
            );
        });
      }
    );
    req.on('error', (e) => finish(failure(r.id, true, e)));
    active.set(r.id, req);
    req.end(r.body);
  };

  port.on('message', (m: ToThread) => {
    if (m.t === 'req') {
      waiting.push(m);
      pump();
    } else if (m.t === 'cancel') {
      const at = waiting.findIndex((r) => r.id === m.id);
      if (at >= 0) {
        waiting.splice(at, 1);
        post(failure(m.id, false, new Error('cancelled before it was sent')));
      } else active.get(m.id)?.destroy(Object.assign(new Error('aborted'), { name: 'AbortError' }));
    } else if (m.t === 'pause') {
      pausedUntil = Math.max(pausedUntil, m.until);
      clearTimeout(resumeTimer);
      resumeTimer = undefined;
      pump();
    }
  });
}

/**
 * The thread's program as text. esbuild with keepNames (tsx, some bundlers) wraps inner functions
 * in its `__name` helper, which the thread would not have: a stand-in that names nothing.
 */
const threadSource = `var __name = (f) => f;\n(${ioThread.toString()})(require, ${retryAfterMs.toString()});`;

/** A call the I/O thread gave back before sending it: nothing reached the remote. */
export class NotSentError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'NotSentError';
  }
}

export interface IoThread {
  /** calls on the wire at once; the rest wait in the thread */
  readonly concurrency: number;
  fetch: FetchLike;
  pause(until: number): void;
  stats(): { inThread: number };
  close(): Promise<void>;
}

/**
 * The remote's HTTP calls, made from a thread of their own: there a free slot takes the next
 * call the moment an answer arrives, while the main thread may be reading and mapping a hundred
 * entries. At 50 ms per answer each millisecond the main thread holds an answer is a
 * millisecond its slot stands idle.
 */
export function createIoThread(options: { concurrency: number }): IoThread {
  let worker: Worker | undefined;
  let nextId = 1;
  const pending = new Map<
    number,
    { resolve: (r: FetchResponseLike) => void; reject: (e: unknown) => void; done: () => void }
  >();

  /** Takes a call out of `pending`, its abort listener with it. */
  const take = (id: number) => {
    const p = pending.get(id);
    if (!p) return undefined;
    pending.delete(id);
    p.done();
    if (!pending.size) worker?.unref();
    return p;
  };

  const settle = (m: FromThread) => {
    const p = take(m.id);
    if (!p) return;
    if (m.t === 'res') {
      const { text } = m;
      p.resolve({
        status: m.status,
        statusText: STATUS_CODES[m.status],
        headers: headerReader(m.headers),
        text: async () => text,
      });
    } else if (!m.sent) p.reject(new NotSentError(m.message));
    else p.reject(Object.assign(new Error(m.message), { code: m.code, name: m.name ?? 'Error' }));
  };

  const lost = (err: unknown) => {
    worker = undefined;
    const reason = err instanceof Error ? err.message : String(err);
    for (const id of [...pending.keys()])
      take(id)?.reject(new Error(`the remote's I/O thread stopped: ${reason}`));
  };

  const thread = () => {
    if (worker) return worker;
    const w = new Worker(threadSource, {
      eval: true,
      workerData: { concurrency: options.concurrency },
      // What it holds lives for one call: a young generation of V8's default 32 MB would only
      // grow the process by that much (a 4 MB one keeps the thread's cost to ~10 MB of RSS).
      resourceLimits: { maxYoungGenerationSizeMb: 4 },
    });
    w.on('message', settle);
    w.on('error', (err) => worker === w && lost(err));
    w.on('exit', (code) => worker === w && lost(new Error(`exit code ${code}`)));
    worker = w;
    return w;
  };

  const send = (m: ToThread) => thread().postMessage(m);

  const fetch: FetchLike = (url: string, init: FetchInitLike) =>
    new Promise<FetchResponseLike>((resolve, reject) => {
      const id = nextId++;
      const signal = init.signal;
      if (signal?.aborted) return reject(new NotSentError('aborted before it was sent'));
      const onAbort = () => send({ t: 'cancel', id });
      signal?.addEventListener('abort', onAbort, { once: true });
      pending.set(id, {
        resolve,
        reject,
        done: () => signal?.removeEventListener('abort', onAbort),
      });
      send({ t: 'req', id, url, method: init.method, headers: init.headers, body: init.body });
      worker?.ref();
    });

  return {
    concurrency: options.concurrency,
    fetch,
    pause: (until) => worker && send({ t: 'pause', until }),
    stats: () => ({ inThread: pending.size }),
    async close() {
      const w = worker;
      worker = undefined;
      lost(new Error('closed'));
      await w?.terminate();
    },
  };
}
