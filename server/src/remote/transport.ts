import http from 'node:http';
import https from 'node:https';
import { performance } from 'node:perf_hooks';
import { RemoteError } from './errors';
import type { Redactor } from './redact';

/** The part of `fetch` the client uses: node-fetch 3, undici's global fetch and test fakes all fit. */
export interface FetchInitLike {
  method: string;
  headers: Record<string, string>;
  body?: string;
  signal?: AbortSignal;
  redirect?: 'follow' | 'manual' | 'error';
  /** node-fetch only; other implementations ignore it. */
  agent?: unknown;
}

export interface FetchResponseLike {
  status: number;
  statusText?: string;
  headers: { get(name: string): string | null };
  text(): Promise<string>;
}

export type FetchLike = (url: string, init: FetchInitLike) => Promise<FetchResponseLike>;

export interface Logger {
  debug(message: string, ...meta: unknown[]): void;
  info(message: string, ...meta: unknown[]): void;
  warn(message: string, ...meta: unknown[]): void;
  error(message: string, ...meta: unknown[]): void;
}

export interface RequestInfo {
  method: string;
  /** path and non-secret query, no host */
  path: string;
}

export interface ResponseInfo extends RequestInfo {
  /** undefined when no response arrived (network error, timeout) */
  status?: number;
  durationMs: number;
  /** set when the call failed before a response: 'network' | 'timeout' */
  error?: string;
}

export interface Hooks {
  onRequest?(info: RequestInfo): void;
  onResponse?(info: ResponseInfo): void;
}

export interface RawRequest {
  method: string;
  url: URL;
  /** what errors, hooks and logs show instead of the URL */
  path: string;
  headers: Record<string, string>;
  body?: string;
}

export interface RawResponse {
  status: number;
  statusText?: string;
  headers: { get(name: string): string | null };
  text: string;
  durationMs: number;
}

export interface TransportOptions {
  fetch: FetchLike;
  timeoutMs: number;
  userAgent: string;
  redactor: Redactor;
  logger?: Logger;
  hooks: Hooks;
}

export interface Transport {
  send(request: RawRequest): Promise<RawResponse>;
  /** Closes idle keep-alive sockets so a stopping process or a test can exit. */
  close(): void;
}

/** A redacting logger: whatever a caller passes, credentials do not reach the log sink. */
export function safeLogger(logger: Logger | undefined, redactor: Redactor): Logger | undefined {
  if (!logger) return undefined;
  const wrap =
    (level: keyof Logger) =>
    (message: string, ...meta: unknown[]) => {
      try {
        logger[level](redactor.text(message), ...meta.map((m) => redactor.value(m)));
      } catch {
        // a broken log sink must not fail a sync call
      }
    };
  return { debug: wrap('debug'), info: wrap('info'), warn: wrap('warn'), error: wrap('error') };
}

function errorCode(err: unknown): string | undefined {
  const seen = new Set<unknown>();
  let current: unknown = err;
  while (current && typeof current === 'object' && !seen.has(current)) {
    seen.add(current);
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && code !== '') return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

export function createTransport(options: TransportOptions): Transport {
  const { fetch, timeoutMs, userAgent, redactor, logger, hooks } = options;
  // Reused sockets avoid a TLS handshake per call when a resync pushes thousands of objects.
  const httpAgent = new http.Agent({ keepAlive: true, maxSockets: 16 });
  const httpsAgent = new https.Agent({ keepAlive: true, maxSockets: 16 });
  const agent = (url: URL) => (url.protocol === 'https:' ? httpsAgent : httpAgent);

  const callHook = (name: keyof Hooks, info: ResponseInfo | RequestInfo) => {
    try {
      (hooks[name] as ((i: typeof info) => void) | undefined)?.(info);
    } catch (err) {
      logger?.warn(`location-content remote: ${name} hook threw: ${String(err)}`);
    }
  };

  return {
    async send(request) {
      const { method, url, path } = request;
      const controller = new AbortController();
      const timer = setTimeout(() => controller.abort(), timeoutMs);
      const started = performance.now();
      callHook('onRequest', { method, path });
      try {
        const response = await fetch(url.toString(), {
          method,
          headers: { 'User-Agent': userAgent, ...request.headers },
          body: request.body,
          signal: controller.signal,
          // Following a redirect would resend the credentials to wherever it points.
          redirect: 'manual',
          agent,
        });
        // The timeout covers the body too: a stalled body must not hang a worker.
        const text = await response.text();
        const durationMs = Math.round(performance.now() - started);
        callHook('onResponse', { method, path, status: response.status, durationMs });
        logger?.debug(
          `location-content remote: ${method} ${path} -> ${response.status} in ${durationMs} ms`
        );
        return {
          status: response.status,
          statusText: response.statusText,
          headers: response.headers,
          text,
          durationMs,
        };
      } catch (err) {
        const durationMs = Math.round(performance.now() - started);
        const timedOut = controller.signal.aborted;
        const code = timedOut ? 'timeout' : 'network';
        callHook('onResponse', { method, path, durationMs, error: code });
        const reason = errorCode(err) ?? (err instanceof Error ? err.message : String(err));
        const message = timedOut
          ? `Timed out after ${timeoutMs} ms on ${method} ${path} (${url.host})`
          : `Network error on ${method} ${path}: ${reason} (${url.host})`;
        logger?.debug(`location-content remote: ${message}`);
        throw new RemoteError({ message: redactor.text(message), code, method, path, cause: err });
      } finally {
        clearTimeout(timer);
      }
    },
    close() {
      httpAgent.destroy();
      httpsAgent.destroy();
    },
  };
}
