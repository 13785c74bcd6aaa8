/**
 * The HTTP server: raw node:http, one pipeline per request:
 *   control routes (/__emulator/, never faulted nor logged)
 *   -> fault decision (latency, status, reset-before, revoke-tokens)
 *   -> body -> token endpoint | media | API (auth 401 -> scope 403 -> rate limit 429 -> 405 -> 415/400 -> handler)
 *   -> reset-after fault or answer -> request log.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { performance } from 'node:perf_hooks';
import { Auth, type AuthedClient } from './auth';
import { Clock } from './clock';
import { DEFAULT_CONFIG, validateConfigPatch } from './config';
import { handleControl } from './control';
import { FaultEngine, type FaultDecision } from './faults';
import {
  EmulatorApiError,
  json,
  mediaTypeOf,
  methodNotAllowed,
  notFound,
  readBody,
  writeReply,
  type Reply,
} from './http';
import { MediaStore } from './media';
import { HAND_BUILT_PARAMS, Paginator } from './pagination';
import { RateLimiter } from './ratelimit';
import { RequestLog, redactBody, redactHeaders } from './requestlog';
import { Store } from './store';
import { FILTERS, listCollection } from './resources/collections';
import { changeMembership } from './resources/membership';
import { createObject, deleteObject, readObject, updateObject } from './resources/objects';
import { validateMembership } from './validation';
import type {
  EmulatorClient,
  EmulatorConfig,
  EmulatorOptions,
  FaultSpec,
  FaultsConfig,
  RequestLogEntry,
  ResourceKind,
  TokenResponse,
} from './types';

const API_PATH = /^\/v3\.0\/(lists|pinpoints|events|categories)(?:\/([^/]+?)(\/pinpoints)?)?\/?$/;
const TOKEN_PATHS = new Set(['/v3.0/oauth2/token', '/v3.0/oauth2/token/']);
const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const NO_FAULT: FaultDecision = { delayMs: 0, action: null, recorded: null };

const COLLECTION_METHODS: Record<ResourceKind, string[]> = {
  pinpoints: ['GET', 'POST'],
  events: ['GET', 'POST'],
  categories: ['GET', 'POST'],
  lists: ['GET', 'POST'],
};
const ITEM_METHODS: Record<ResourceKind, string[]> = {
  pinpoints: ['GET', 'PUT', 'DELETE'],
  events: ['GET', 'PUT', 'DELETE'],
  categories: ['GET', 'PUT'], // no delete for categories in the contract: 405
  lists: ['GET', 'PUT', 'DELETE'],
};
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

function resetSocket(socket: Socket | null | undefined): void {
  if (!socket || socket.destroyed) return;
  if (typeof socket.resetAndDestroy === 'function') socket.resetAndDestroy();
  else socket.destroy();
}

interface RequestCtx {
  method: string;
  path: string;
  query: string;
  headers: IncomingMessage['headers'];
  body: Buffer;
  entry: RequestLogEntry;
}

export class Emulator {
  readonly clock = new Clock();
  readonly auth: Auth;
  readonly faults = new FaultEngine();
  readonly limiter: RateLimiter;
  readonly media: MediaStore;
  readonly store: Store;
  readonly log: RequestLog;
  readonly paginator = new Paginator();
  readonly server: Server;
  cfg: EmulatorConfig;
  baseUrl = 'http://127.0.0.1:0';
  port = 0;

  private readonly startConfig: EmulatorConfig;
  private readonly startClients: EmulatorClient[];
  private readonly startFaults: FaultsConfig;
  private readonly maxBodyBytesOpt: number | undefined;
  private readonly logger: ((line: string) => void) | undefined;
  private readonly sleeping = new Set<{ timer: NodeJS.Timeout; resolve: () => void }>();
  private stopped = false;
  private stopping: Promise<void> | null = null;

  constructor(opts: EmulatorOptions = {}) {
    const {
      port: _p,
      clientId,
      clientSecret,
      scope,
      clients,
      faults,
      requestLogSize,
      maxBodyBytes,
      logger,
      ...configOpts
    } = opts;
    const defined = Object.fromEntries(
      Object.entries(configOpts).filter(([, v]) => v !== undefined)
    );
    this.startConfig = { ...DEFAULT_CONFIG, ...validateConfigPatch(defined) };
    this.cfg = { ...this.startConfig };
    this.startClients =
      clients && clients.length
        ? clients.map((c) => ({ ...c }))
        : [
            {
              clientId: clientId ?? 'demo-client',
              clientSecret: clientSecret ?? 'demo-secret',
              scope: scope ?? 'write read',
            },
          ];
    this.auth = new Auth(this.startClients, this.clock);
    this.limiter = new RateLimiter(this.clock);
    this.media = new MediaStore(() => this.baseUrl);
    this.store = new Store(this.media, () => this.clock.now());
    this.log = new RequestLog(requestLogSize ?? 10_000);
    this.faults.set(faults ?? null);
    this.startFaults = this.faults.get();
    if (maxBodyBytes !== undefined && (!Number.isInteger(maxBodyBytes) || maxBodyBytes < 1)) {
      throw new TypeError('maxBodyBytes must be an integer >= 1');
    }
    this.maxBodyBytesOpt = maxBodyBytes;
    this.logger = logger;
    this.server = createServer({ keepAliveTimeout: 5_000 }, (req, res) => {
      this.onRequest(req, res).catch((err: unknown) => this.crash(res, err));
    });
    this.server.on('clientError', (_err, socket) => {
      if (socket.writable)
        socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
      else socket.destroy();
    });
  }

  listen(port: number): Promise<void> {
    return new Promise((resolve, reject) => {
      const onError = (err: Error): void => reject(err);
      this.server.once('error', onError);
      this.server.listen(port, '127.0.0.1', () => {
        this.server.off('error', onError);
        const addr = this.server.address();
        this.port = typeof addr === 'object' && addr ? addr.port : port;
        this.baseUrl = `http://127.0.0.1:${this.port}`;
        resolve();
      });
    });
  }

  stop(): Promise<void> {
    if (this.stopping) return this.stopping;
    this.stopped = true;
    for (const s of this.sleeping) {
      clearTimeout(s.timer);
      s.resolve();
    }
    this.sleeping.clear();
    this.stopping = new Promise((resolve) => {
      this.server.close(() => resolve());
      this.server.closeAllConnections();
    });
    return this.stopping;
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
    return this.maxBodyBytesOpt ?? Math.ceil((this.cfg.maxMediaBytes * 4) / 3) + 1024 * 1024;
  }

  private crash(res: ServerResponse, err: unknown): void {
    // A bug of the emulator must never take the process down: answer 500 and say so.
    process.stderr.write(
      `[emulator] internal error: ${err instanceof Error ? err.stack : String(err)}\n`
    );
    if (!res.headersSent && !res.destroyed) {
      writeReply(
        res,
        json(500, {
          detail: 'Emulator internal error (a bug in the emulator, not an injected fault).',
        })
      );
    } else if (!res.destroyed) res.destroy();
  }

  // ---------------------------------------------------------------- pipeline

  private async onRequest(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const t0 = performance.now();
    const rawUrl = req.url ?? '/';
    const qi = rawUrl.indexOf('?');
    const path = qi === -1 ? rawUrl : rawUrl.slice(0, qi);
    const query = qi === -1 ? '' : rawUrl.slice(qi + 1);
    const method = (req.method ?? 'GET').toUpperCase();

    if (path === '/__emulator' || path.startsWith('/__emulator/'))
      return handleControl(this, req, res, method, path, query);

    const entry: RequestLogEntry = {
      seq: this.log.nextSeq(),
      time: new Date(this.clock.now()).toISOString(),
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
      this.log.add(entry);
      this.logger?.(
        `${entry.method} ${entry.path} -> ${status ?? `reset${applied ? ` (applied ${applied})` : ''}`} ${entry.durationMs}ms${entry.fault ? ` [fault ${entry.fault}]` : ''}`
      );
    };

    const decision = this.faults.active ? this.faults.decide(method, path) : NO_FAULT;
    entry.fault = decision.recorded;
    if (decision.delayMs > 0) {
      await this.sleep(decision.delayMs);
      if (this.stopped) return;
    }
    const action = decision.action;
    if (action?.kind === 'reset-before') {
      resetSocket(req.socket);
      return finish(null);
    }
    if (action?.kind === 'status') {
      const reply = faultReply(action);
      writeReply(res, reply, method === 'HEAD');
      return finish(reply.status);
    }
    if (action?.kind === 'revoke-tokens') this.auth.revoke();

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
        reply = this.route(ctx);
      } catch (err) {
        if (err instanceof EmulatorApiError)
          reply = { status: err.status, body: err.body, headers: err.headers };
        else {
          process.stderr.write(
            `[emulator] internal error on ${method} ${rawUrl}: ${err instanceof Error ? err.stack : String(err)}\n`
          );
          reply = json(500, {
            detail: 'Emulator internal error (a bug in the emulator, not an injected fault).',
          });
        }
      }
    }
    if (action?.kind === 'reset-after') {
      resetSocket(req.socket);
      return finish(null, reply.status);
    }
    if (res.destroyed) return finish(null);
    writeReply(res, reply, method === 'HEAD');
    finish(reply.status);
  }

  private route(ctx: RequestCtx): Reply {
    const { method, path } = ctx;
    if (TOKEN_PATHS.has(path)) return this.tokenEndpoint(ctx);
    if (path.startsWith('/images/')) return this.serveMedia(ctx);
    const m = API_PATH.exec(path);
    if (!m) throw notFound();
    const kind = m[1] as ResourceKind;
    const idText = m[2];
    const members = m[3] !== undefined;
    if (members && kind !== 'lists') throw notFound();
    let id: number | null = null;
    if (idText !== undefined) {
      if (!/^\d{1,15}$/.test(idText)) throw notFound();
      id = Number(idText);
    }

    // DRF order: authentication, permission, throttling, then the method handler.
    const client = this.authenticate(ctx);
    if (WRITE_METHODS.has(method) && !client.canWrite) {
      throw new EmulatorApiError(403, {
        detail: 'You do not have permission to perform this action.',
      });
    }
    if (this.cfg.rateLimit) this.limiter.take(client.clientId, this.cfg.rateLimit);

    const allowed = members
      ? ['POST', 'DELETE']
      : id === null
        ? COLLECTION_METHODS[kind]
        : ITEM_METHODS[kind];
    const verb = method === 'HEAD' ? 'GET' : method;
    if (method === 'OPTIONS')
      return json(
        200,
        { name: kind, renders: ['application/json'], parses: ['application/json'] },
        { allow: [...allowed, 'HEAD', 'OPTIONS'].join(', ') }
      );
    if (!allowed.includes(verb)) throw methodNotAllowed(method, allowed);

    const params = new URLSearchParams(ctx.query);
    if (this.cfg.strict) {
      const ok = new Set<string>();
      if (id === null && !members && verb === 'GET') {
        ok.add('cursor');
        const f = FILTERS[kind];
        if (f) ok.add(f);
      }
      const unknown: Record<string, string[]> = {};
      for (const k of params.keys())
        if (!ok.has(k) && !HAND_BUILT_PARAMS.includes(k)) unknown[k] = ['Unknown query parameter.'];
      if (Object.keys(unknown).length) throw new EmulatorApiError(400, unknown);
    }

    if (members) {
      const ids = validateMembership(this.parseJson(ctx), this.cfg.strict);
      return changeMembership(this, id!, ids, verb === 'POST');
    }
    if (id === null) {
      if (verb === 'GET') return listCollection(this, kind, params);
      return json(201, createObject(this, kind, this.parseJson(ctx)));
    }
    if (verb === 'GET') return json(200, readObject(this, kind, id));
    if (verb === 'PUT') return json(200, updateObject(this, kind, id, this.parseJson(ctx)));
    deleteObject(this, kind, id);
    return { status: 204 };
  }

  private authenticate(ctx: RequestCtx): AuthedClient {
    const client = this.auth.authenticate(ctx.headers.authorization);
    ctx.entry.clientId = client.clientId;
    return client;
  }

  private parseJson(ctx: RequestCtx): unknown {
    if (ctx.body.length === 0) return {};
    const type = mediaTypeOf(ctx.headers['content-type']);
    if (type !== 'application/json') {
      throw new EmulatorApiError(415, {
        detail: `Unsupported media type "${ctx.headers['content-type'] ?? ''}" in request.`,
      });
    }
    let value: unknown;
    try {
      value = JSON.parse(ctx.body.toString('utf8'));
    } catch (err) {
      throw new EmulatorApiError(400, {
        detail: `JSON parse error - ${err instanceof Error ? err.message : String(err)}`,
      });
    }
    ctx.entry.body = redactBody(value);
    return value;
  }

  // ---------------------------------------------------------------- token + media

  private tokenEndpoint(ctx: RequestCtx): Reply {
    if (ctx.method !== 'POST') throw methodNotAllowed(ctx.method, ['POST']);
    const basicId = Auth.basicClientId(ctx.headers.authorization);
    if (this.cfg.rateLimit?.includeTokenRequests)
      this.limiter.take(basicId ?? 'anonymous', this.cfg.rateLimit);
    ctx.entry.clientId = basicId;
    const { token, form } = this.auth.tokenRequest(
      { authorization: ctx.headers.authorization, 'content-type': ctx.headers['content-type'] },
      ctx.body,
      this.cfg.strict,
      this.cfg.tokenTtl
    );
    ctx.entry.body = redactBody(form);
    return json(200, token, { 'cache-control': 'no-store', pragma: 'no-cache' });
  }

  private serveMedia(ctx: RequestCtx): Reply {
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') throw methodNotAllowed(ctx.method, ['GET']);
    let p = ctx.path;
    try {
      p = decodeURIComponent(p);
    } catch {
      throw notFound();
    }
    const m = this.media.get(p);
    if (!m) throw notFound();
    const etag = `"${m.sha256.slice(0, 32)}"`;
    const headers = { 'content-type': m.type, etag, 'cache-control': 'public, max-age=86400' };
    if (ctx.headers['if-none-match'] === etag) return { status: 304, headers };
    return { status: 200, body: m.bytes, raw: true, headers };
  }

  // ---------------------------------------------------------------- handle operations

  reset(opts: { tokens?: boolean } = {}): void {
    this.store.clear();
    this.log.clear();
    this.log.resetStats();
    this.faults.set(this.startFaults);
    this.limiter.clear();
    this.clock.resetOffset();
    this.cfg = { ...this.startConfig };
    this.auth.resetClients(this.startClients);
    if (opts.tokens) this.auth.clearTokens();
  }

  configure(patch: unknown): EmulatorConfig {
    const v = validateConfigPatch(patch);
    this.cfg = { ...this.cfg, ...v };
    if ('rateLimit' in v) this.limiter.clear();
    return { ...this.cfg };
  }

  createObject(kind: ResourceKind, body: unknown): Record<string, unknown> {
    return createObject(this, kind, body);
  }

  issueToken(clientId?: string): TokenResponse {
    return this.auth.issue(clientId ?? this.startClients[0]!.clientId, this.cfg.tokenTtl);
  }
}
