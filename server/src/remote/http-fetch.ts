import http from 'node:http';
import { Agent, request, errors } from 'undici';
import type { FetchInitLike, FetchLike, FetchResponseLike } from './transport';

// Reused sockets avoid a TLS handshake per call when a resync pushes thousands of objects.
const dispatcher = new Agent({ connections: 16 });

/**
 * undici's `request` behind the client's fetch shape: a push is one small JSON call, and
 * fetch's streams, Headers and Body classes cost more CPU than the call itself during a resync
 * of thousands of entries. `request` never follows redirects (following one would resend the
 * credentials). The whole body is read before the promise resolves, so a timeout covers it.
 */
export const httpFetch: FetchLike = async (
  url: string,
  init: FetchInitLike
): Promise<FetchResponseLike> => {
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
      status: res.statusCode,
      statusText: http.STATUS_CODES[res.statusCode],
      headers: headerReader(res.headers),
      text: async () => text,
    };
  } catch (err) {
    throw withNodeCode(err);
  }
};

/** A response's headers as Node gives them, read the way fetch's Headers reads them. */
export const headerReader = (headers: Record<string, string | string[] | number | undefined>) => ({
  get(name: string) {
    const v = headers[name.toLowerCase()];
    return v === undefined ? null : Array.isArray(v) ? v.join(', ') : String(v);
  },
});

/** undici says "other side closed" where node:http says ECONNRESET: the log and the error keep Node's code. */
function withNodeCode(err: unknown): unknown {
  if (err instanceof errors.SocketError && !(err.cause as { code?: string } | undefined)?.code) {
    return Object.assign(err, { code: 'ECONNRESET' });
  }
  return err;
}
