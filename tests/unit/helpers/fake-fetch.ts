import type { FetchInitLike, FetchLike, FetchResponseLike } from '../../../server/src/remote';

export interface FakeCall {
  url: URL;
  method: string;
  headers: Record<string, string>;
  body?: string;
  signal?: AbortSignal;
}

export interface FakeReply {
  status?: number;
  statusText?: string;
  /** serialized as JSON unless `text` is given */
  json?: unknown;
  text?: string;
  headers?: Record<string, string>;
}

export type FakeHandler = (call: FakeCall) => FakeReply | Promise<FakeReply>;

export const TOKEN_REPLY: FakeReply = {
  json: {
    access_token: 'tok-AAAAAAAAAAAAAAAAAAAAAAAAAAAA',
    expires_in: 36000,
    scope: 'write read',
    token_type: 'Bearer',
  },
};

function response(reply: FakeReply): FetchResponseLike {
  const headers = new Map(
    Object.entries(reply.headers ?? {}).map(([k, v]) => [k.toLowerCase(), v])
  );
  const text = reply.text ?? (reply.json === undefined ? '' : JSON.stringify(reply.json));
  return {
    status: reply.status ?? 200,
    statusText: reply.statusText ?? '',
    headers: { get: (name: string) => headers.get(name.toLowerCase()) ?? null },
    text: async () => text,
  };
}

/**
 * A fetch that records every call and answers from `handler`. Token requests
 * are answered with a fixed token unless `handler` deals with them itself
 * (return undefined from `token` to fall through).
 */
export function fakeFetch(handler: FakeHandler, token?: FakeHandler) {
  const calls: FakeCall[] = [];
  const fetch: FetchLike = async (url: string, init: FetchInitLike) => {
    const call: FakeCall = {
      url: new URL(url),
      method: init.method,
      headers: { ...init.headers },
      body: init.body,
      signal: init.signal,
    };
    calls.push(call);
    // Let concurrent callers pile up, as they would on a real socket.
    await new Promise((resolve) => setImmediate(resolve));
    if (call.url.pathname.endsWith('/oauth2/token'))
      return response(await (token ?? (() => TOKEN_REPLY))(call));
    return response(await handler(call));
  };
  return {
    fetch,
    calls,
    apiCalls: () => calls.filter((c) => !c.url.pathname.endsWith('/oauth2/token')),
    tokenCalls: () => calls.filter((c) => c.url.pathname.endsWith('/oauth2/token')),
  };
}

/** A logger that keeps every line, to prove what never reaches it. */
export function recordingLogger() {
  const lines: string[] = [];
  return { logger: { info: (message: string) => lines.push(message) }, lines };
}

/** Answers nothing until `signal` aborts, like a stalled server; then rejects as fetch does. */
export function never(call: FakeCall): Promise<FakeReply> {
  return new Promise((_, reject) => {
    call.signal?.addEventListener('abort', () => {
      const err = new Error('The operation was aborted.');
      err.name = 'AbortError';
      reject(err);
    });
  });
}
