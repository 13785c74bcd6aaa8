/**
 * The emulator: its state (store, tokens, faults, rate limits, request log, clock, config) and a
 * raw node:http server that hands every request to the pipeline (pipeline.ts), which sends
 * control routes to control.ts and the rest to the API (api.ts, resources/).
 */
import { createServer, type Server } from 'node:http';
import { Auth } from './auth';
import { Clock } from './clock';
import { DEFAULT_CONFIG, validateConfigPatch } from './config';
import { FaultEngine } from './faults';
import { MediaStore } from './media';
import { Paginator } from './pagination';
import { RequestPipeline } from './pipeline';
import { RateLimiter } from './ratelimit';
import { RequestLog } from './requestlog';
import { createObject } from './resources/objects';
import { Store } from './store';
import type {
  EmulatorClient,
  EmulatorConfig,
  EmulatorOptions,
  FaultsConfig,
  ResourceKind,
  TokenResponse,
} from './types';

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
  private readonly pipeline: RequestPipeline;
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
    this.pipeline = new RequestPipeline(this, { maxBodyBytes, logger });
    this.server = createServer({ keepAliveTimeout: 5_000 }, (req, res) =>
      this.pipeline.handle(req, res)
    );
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

  /** Lets the requests held by a 'hold' fault go on. */
  release(): number {
    return this.pipeline.release();
  }

  get held(): number {
    return this.pipeline.held;
  }

  stop(): Promise<void> {
    if (this.stopping) return this.stopping;
    this.pipeline.halt();
    this.stopping = new Promise((resolve) => {
      this.server.close(() => resolve());
      this.server.closeAllConnections();
    });
    return this.stopping;
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
