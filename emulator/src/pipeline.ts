/**
 * One pipeline per request:
 *   control routes (/__emulator/, never faulted nor logged)
 *   -> fault decision (latency, status, reset-before, revoke-tokens)
 *   -> body (413 past the limit) -> the API (api.ts)
 *   -> reset-after fault, or the answer (garbled by a garble-after fault) -> request log.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { performance } from 'node:perf_hooks';
import { routeApi, type ApiHost, type RequestCtx } from './api';
import { handleControl, type ControlHost } from './control';
import type { FaultDecision } from './faults';
import { EmulatorApiError, json, readBody, writeReply, type Reply } from './http';
import { redactHeaders } from './requestlog';
import type { FaultSpec, RequestLogEntry } from './types';

export type PipelineHost = ApiHost & ControlHost;

export interface PipelineOptions {
  /** Largest request body in bytes; by default what the largest media, base64-encoded, needs. */
  maxBodyBytes?: number;
  /** Receives one line per logged request. */
  logger?: (line: string) => void;
}

const NO_FAULT: FaultDecision = { delayMs: 0, action: null, recorded: null };

/** A bug of the emulator, told apart from an injected fault so that no test mistakes one for the other. */
const internalError = (): Reply =>
  json(500, { detail: 'Emulator internal error (a bug in the emulator, not an injected fault).' });

/** Body of a proxy/server error page for injected status faults (real error bodies are often not JSON). */
function faultReply(f: FaultSpec): Reply {
  const status = f.status ?? 503;
  const headers: Record<string, string> = {};
  if (f.retryAfter !== undefined) headers['retry-after'] = String(f.retryAfter);
  if (f.body !== undefined) {
    if (typeof f.body === 'string')
      return {
        status,
        body: f.body,
        raw: true,
        headers: { ...headers, 'content-type': 'text/plain; charset=utf-8' },
      };
    return { status, body: f.body, headers };
  }
  if (status === 429) {
    const wait = f.retryAfter ?? 1;
    return {
      status,
      body: { detail: `Request was throttled. Expected available in ${wait} seconds.` },
      headers: { 'retry-after': String(wait), ...headers },
    };
  }
  if (status < 500) return { status, body: { detail: `Injected fault ${status}.` }, headers };
  const titles: Record<number, string> = {
    500: 'Server Error (500)',
    502: '502 Bad Gateway',
    503: '503 Service Temporarily Unavailable',
    504: '504 Gateway Time-out',
  };
  const title = titles[status] ?? `${status} Error`;
  return {
    status,
    raw: true,
    body: `<html>\r\n<head><title>${title}</title></head>\r\n<body>\r\n<center><h1>${title}</h1></center>\r\n</body>\r\n</html>\r\n`,
    headers: { ...headers, 'content-type': 'text/html' },
  };
}

/** The answer of a request that was applied, made unreadable on its way back (a proxy cutting it short, say). */
function garbledReply(reply: Reply, f: FaultSpec): Reply {
  const headers = { ...(reply.headers ?? {}) };
  if (typeof f.body === 'string')
    return {
      status: reply.status,
      body: f.body,
      raw: true,
      headers: { ...headers, 'content-type': 'text/html; charset=utf-8' },
    };
  if (f.body !== undefined) return { status: reply.status, body: f.body, headers };
  const text = reply.body === undefined ? '' : JSON.stringify(reply.body);
  return {
    status: reply.status,
    body: text.slice(0, Math.floor(text.length / 2)),
    raw: true,
    headers: { ...headers, 'content-type': 'application/json' },
  };
}

function resetSocket(socket: Socket | null | undefined): void {
  if (!socket || socket.destroyed) return;
  if (typeof socket.resetAndDestroy === 'function') socket.resetAndDestroy();
  else socket.destroy();
}

export class RequestPipeline {
  /** Requests held by a latency fault, woken by halt() so that stop() need not wait for them. */
  private readonly sleeping = new Set<{ timer: NodeJS.Timeout; resolve: () => void }>();
  /** Requests held by a 'hold' fault until release() (or halt()). */
  private readonly holding = new Set<() => void>();
  private stopped = false;

  constructor(
    private readonly host: PipelineHost,
    private readonly opts: PipelineOptions
  ) {}

  /** The node:http request listener. */
  handle(req: IncomingMessage, res: ServerResponse): void {
    this.onRequest(req, res).catch((err: unknown) => this.crash(res, err));
  }

  /** Answer nothing more: requests waiting on a delay or a body stop where they are. */
  halt(): void {
    this.stopped = true;
    for (const s of this.sleeping) {
      clearTimeout(s.timer);
      s.resolve();
    }
    this.sleeping.clear();
    this.release();
  }

  /** Lets the held requests go on; answers how many there were. */
  release(): number {
    const n = this.holding.size;
    for (const resolve of this.holding) resolve();
    this.holding.clear();
    return n;
  }

  get held(): number {
    return this.holding.size;
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const s = {
        timer: setTimeout(() => {
          this.sleeping.delete(s);
          resolve();
        }, ms),
        resolve,
      };
      this.sleeping.add(s);
    });
  }

  private bodyLimit(): number {
    return this.opts.maxBodyBytes ?? Math.ceil((this.host.cfg.maxMediaBytes * 4) / 3) + 1024 * 1024;
  }

  private crash(res: ServerResponse, err: unknown): void {
    // A bug of the emulator must never take the process down: answer 500 and say so.
    process.stderr.write(
      `[emulator] internal error: ${err instanceof Error ? err.stack : String(err)}\n`
    );
    if (!res.headersSent && !res.destroyed) {
      writeReply(res, internalError());
    } else if (!res.destroyed) res.destroy();
  }

  private async onRequest(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const t0 = performance.now();
    const rawUrl = req.url ?? '/';
    const qi = rawUrl.indexOf('?');
    const path = qi === -1 ? rawUrl : rawUrl.slice(0, qi);
    const query = qi === -1 ? '' : rawUrl.slice(qi + 1);
    const method = (req.method ?? 'GET').toUpperCase();

    if (path === '/__emulator' || path.startsWith('/__emulator/'))
      return handleControl(this.host, req, res, method, path, query);

    const entry: RequestLogEntry = {
      seq: this.host.log.nextSeq(),
      time: new Date(this.host.clock.now()).toISOString(),
      method,
      path: rawUrl,
      status: null,
      durationMs: 0,
      clientId: null,
      fault: null,
      headers: redactHeaders(req.headers),
    };
    const finish = (status: number | null, applied?: number): void => {
      entry.status = status;
      if (applied !== undefined) entry.appliedStatus = applied;
      entry.durationMs = Math.round((performance.now() - t0) * 100) / 100;
      this.host.log.add(entry);
      this.opts.logger?.(
        `${entry.method} ${entry.path} -> ${status ?? `reset${applied ? ` (applied ${applied})` : ''}`} ${entry.durationMs}ms${entry.fault ? ` [fault ${entry.fault}]` : ''}`
      );
    };

    const decision = this.host.faults.active ? this.host.faults.decide(method, path) : NO_FAULT;
    entry.fault = decision.recorded;
    if (decision.delayMs > 0) {
      await this.sleep(decision.delayMs);
      if (this.stopped) return;
    }
    const action = decision.action;
    if (action?.kind === 'hold') {
      await new Promise<void>((resolve) => this.holding.add(resolve));
      if (this.stopped) return;
    }
    if (action?.kind === 'reset-before') {
      resetSocket(req.socket);
      return finish(null);
    }
    if (action?.kind === 'status') {
      const reply = faultReply(action);
      writeReply(res, reply, method === 'HEAD');
      return finish(reply.status);
    }
    if (action?.kind === 'revoke-tokens') this.host.auth.revoke();

    const limit = this.bodyLimit();
    const got = await readBody(req, limit, limit * 4);
    if (this.stopped) return;
    let reply: Reply;
    if (!got.ok) {
      if (!got.tooLarge) {
        // The client went away mid-body: nothing to answer.
        return finish(null);
      }
      reply = json(413, {
        detail: `Request body too large: ${got.received} bytes; at most ${limit} bytes.`,
      });
    } else {
      const ctx: RequestCtx = { method, path, query, headers: req.headers, body: got.body, entry };
      try {
        reply = routeApi(this.host, ctx);
      } catch (err) {
        if (err instanceof EmulatorApiError) reply = err.toReply();
        else {
          process.stderr.write(
            `[emulator] internal error on ${method} ${rawUrl}: ${err instanceof Error ? err.stack : String(err)}\n`
          );
          reply = internalError();
        }
      }
    }
    if (action?.kind === 'reset-after') {
      resetSocket(req.socket);
      return finish(null, reply.status);
    }
    if (action?.kind === 'garble-after') reply = garbledReply(reply, action);
    if (res.destroyed) return finish(null);
    writeReply(res, reply, method === 'HEAD');
    finish(reply.status);
  }
}
