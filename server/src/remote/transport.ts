import { Agent, errors, request } from 'undici';
import { RemoteError, causes } from './errors';
import type { Redactor } from './redact';

/** The one HTTP call the client makes: `httpFetch` below in production, a fake in tests, and the limiter wraps either. */
export interface FetchInitLike {
  method: string;
  headers: Record<string, string>;
  body?: string;
  signal?: AbortSignal;
}

export interface FetchResponseLike {
  status: number;
  statusText?: string;
  headers: { get(name: string): string | null };
  text(): Promise<string>;
}

export type FetchLike = (url: string, init: FetchInitLike) => Promise<FetchResponseLike>;

// Reused sockets avoid a TLS handshake per call when a resync pushes thousands of objects.
const dispatcher = new Agent({ connections: 16 });

/**
 * The plugin's one HTTP client: undici's `request` on a keep-alive agent. It never follows a
 * redirect (following one would resend the credentials), and it reads the whole body before it
 * answers, so a timeout covers the body too.
 */
export const httpFetch: FetchLike = async (url, init) => {
  try {
    const res = await request(url, {
      method: init.method as 'GET',
      headers: init.headers,
      body: init.body,
      signal: init.signal,
      dispatcher,
    });
    const text = await res.body.text();
    return {
      // No statusText: undici has none, and statusLine (errors.ts) names the status itself.
      status: res.statusCode,
      headers: headerReader(res.headers),
      text: async () => text,
    };
  } catch (err) {
    throw withNodeCode(err);
  }
};

/**
 * An uploaded file from a provider that stores files elsewhere (S3, a CDN), with no bytes when
 * the answer is not 2xx. No credentials are sent, so a redirect to the file may be followed.
 */
export async function download(
  url: string,
  options: { timeoutMs: number }
): Promise<{ status: number; bytes?: Buffer }> {
  const res = await openDownload(url, { signal: AbortSignal.timeout(options.timeoutMs) });
  if (res.status < 200 || res.status >= 300) {
    await res.dump();
    return { status: res.status };
  }
  const chunks: Buffer[] = [];
  for await (const chunk of res.body) chunks.push(chunk);
  return { status: res.status, bytes: Buffer.concat(chunks) };
}

/**
 * A remote file fetched to be kept (the import's media): like `download`, no credentials and up to
 * five redirects followed, but the body is handed on unread. A 429's body is dropped here, since
 * the limiter that wraps this reads only the status and asks again; `dump` drops the rest of a
 * body, so that the socket goes back to the agent.
 */
export async function openDownload(url: string, init: { signal?: AbortSignal } = {}) {
  let res;
  try {
    res = await request(url, {
      method: 'GET',
      signal: init.signal,
      maxRedirections: 5,
      dispatcher,
    });
  } catch (err) {
    throw withNodeCode(err);
  }
  const body = res.body;
  const dump = () => body.dump().catch(() => undefined);
  if (res.statusCode === 429) await dump();
  return {
    status: res.statusCode,
    headers: headerReader(res.headers),
    body: body as AsyncIterable<Buffer>,
    dump,
  };
}

/** A response's headers as Node gives them, read the way fetch's Headers reads them. */
const headerReader = (headers: Record<string, string | string[] | undefined>) => ({
  get(name: string) {
    const v = headers[name.toLowerCase()];
    return v === undefined ? null : Array.isArray(v) ? v.join(', ') : v;
  },
});

/** undici says "other side closed" where node:http says ECONNRESET: the log and the error keep Node's code. */
function withNodeCode(err: unknown): unknown {
  if (err instanceof errors.SocketError && !(err.cause as { code?: string } | undefined)?.code) {
    return Object.assign(err, { code: 'ECONNRESET' });
  }
  return err;
}

/** Strapi's log: the client says there when it renews a refused token. */
export type Logger = { info: (message: string) => void };

export type RawResponse = Omit<FetchResponseLike, 'text'> & { text: string };

/** A redacting logger: whatever a caller passes, credentials do not reach the log sink. */
export function safeLogger(logger: Logger | undefined, redactor: Redactor): Logger | undefined {
  if (!logger) return undefined;
  return {
    info(message) {
      try {
        logger.info(redactor.text(message));
      } catch {
        // a broken log sink must not fail a sync call
      }
    },
  };
}

export type Transport = ReturnType<typeof createTransport>;

export function createTransport(options: {
  fetch: FetchLike;
  timeoutMs: number;
  redactor: Redactor;
}) {
  const { fetch, timeoutMs, redactor } = options;

  return {
    /** `path` is what errors show instead of the URL. */
    async send(request: {
      method: string;
      url: URL;
      path: string;
      headers: Record<string, string>;
      body?: string;
    }): Promise<RawResponse> {
      const { method, url, path } = request;
      const controller = new AbortController();
      const timer = setTimeout(() => controller.abort(), timeoutMs);
      try {
        const response = await fetch(url.toString(), {
          method,
          headers: { 'User-Agent': 'strapi-plugin-location-content', ...request.headers },
          body: request.body,
          signal: controller.signal,
        });
        // The timeout covers the body too: a stalled body must not hang a worker.
        const text = await response.text();
        return {
          status: response.status,
          statusText: response.statusText,
          headers: response.headers,
          text,
        };
      } catch (err) {
        const timedOut = controller.signal.aborted;
        const code = timedOut ? 'timeout' : 'network';
        const system = [...causes(err)].find((e) => typeof e.code === 'string' && e.code !== '');
        const reason =
          (system?.code as string) ?? (err instanceof Error ? err.message : String(err));
        const message = timedOut
          ? `Timed out after ${timeoutMs} ms on ${method} ${path} (${url.host})`
          : `Network error on ${method} ${path}: ${reason} (${url.host})`;
        throw new RemoteError({ message: redactor.text(message), code, method, path, cause: err });
      } finally {
        clearTimeout(timer);
      }
    },
  };
}
