import http from 'node:http';
import https from 'node:https';
import type { FetchInitLike, FetchLike, FetchResponseLike } from './transport';

const STATUS_TEXT = http.STATUS_CODES;

class AbortError extends Error {
  readonly code = 'ABORT_ERR';
  constructor(reason: unknown) {
    super(reason instanceof Error ? reason.message : 'The operation was aborted');
    this.name = 'AbortError';
  }
}

/**
 * The part of fetch the client needs, straight on node:http: a push is one small JSON call,
 * and fetch's streams, Headers and Body classes cost more CPU than the call itself during a
 * resync of thousands of entries. Redirects are never followed (the transport asks for
 * 'manual' anyway: following one would resend the credentials). The whole body is read
 * before the promise resolves, so a timeout covers it.
 */
export const httpFetch: FetchLike = (url: string, init: FetchInitLike): Promise<FetchResponseLike> =>
  new Promise((resolve, reject) => {
    const signal = init.signal;
    if (signal?.aborted) return reject(new AbortError(signal.reason));
    const target = new URL(url);
    const lib = target.protocol === 'https:' ? https : http;
    const headers: Record<string, string> = { ...init.headers };
    if (init.body !== undefined) headers['Content-Length'] = String(Buffer.byteLength(init.body));
    let settled = false;
    const fail = (err: unknown) => {
      if (settled) return;
      settled = true;
      signal?.removeEventListener('abort', onAbort);
      reject(err);
    };
    const req = lib.request(
      target,
      { method: init.method, headers, agent: (typeof init.agent === 'function' ? init.agent(target) : init.agent) as http.Agent | undefined },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('error', fail);
        res.on('aborted', () => fail(Object.assign(new Error('the response was cut off'), { code: 'ECONNRESET' })));
        res.on('end', () => {
          if (settled) return;
          settled = true;
          signal?.removeEventListener('abort', onAbort);
          const text = Buffer.concat(chunks).toString('utf8');
          const status = res.statusCode ?? 0;
          resolve({
            status,
            statusText: res.statusMessage ?? STATUS_TEXT[status],
            headers: {
              get(name: string) {
                const v = res.headers[name.toLowerCase()];
                return v === undefined ? null : Array.isArray(v) ? v.join(', ') : String(v);
              },
            },
            text: async () => text,
          });
        });
      },
    );
    const onAbort = () => {
      req.destroy();
      fail(new AbortError(signal?.reason));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    req.on('error', fail);
    req.end(init.body);
  });
