/** Small HTTP helpers for the emulator's own tests (global fetch, no client library). */
import type { EmulatorHandle } from '../../emulator/src';

export interface Res {
  status: number;
  headers: Headers;
  /** Parsed JSON when the answer is JSON, else the text. */
  body: any;
  text: string;
}

export interface CallOptions {
  token?: string | null;
  json?: unknown;
  /** Raw body (sent as is, with `contentType` if given). */
  raw?: string;
  contentType?: string;
  headers?: Record<string, string>;
}

export async function call(
  emu: EmulatorHandle,
  method: string,
  path: string,
  opts: CallOptions = {}
): Promise<Res> {
  const url = path.startsWith('http') ? path : `${emu.baseUrl}${path}`;
  const headers: Record<string, string> = { ...(opts.headers ?? {}) };
  if (opts.token) headers.authorization = `Bearer ${opts.token}`;
  let body: string | undefined;
  if (opts.json !== undefined) {
    body = JSON.stringify(opts.json);
    headers['content-type'] = opts.contentType ?? 'application/json';
  } else if (opts.raw !== undefined) {
    body = opts.raw;
    if (opts.contentType) headers['content-type'] = opts.contentType;
  }
  const res = await fetch(url, { method, headers, body });
  const text = await res.text();
  let parsed: unknown = text;
  if ((res.headers.get('content-type') ?? '').startsWith('application/json') && text)
    parsed = JSON.parse(text);
  return { status: res.status, headers: res.headers, body: parsed, text };
}

export function basic(id: string, secret: string): string {
  return `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;
}

/** POST /v3.0/oauth2/token as the contract says. */
export function tokenRequest(
  emu: EmulatorHandle,
  id = emu.clientId,
  secret = emu.clientSecret,
  form?: string
): Promise<Res> {
  return call(emu, 'POST', '/v3.0/oauth2/token', {
    raw: form ?? `client_id=${encodeURIComponent(id)}&grant_type=client_credentials`,
    contentType: 'application/x-www-form-urlencoded',
    headers: { authorization: basic(id, secret) },
  });
}

export async function getToken(
  emu: EmulatorHandle,
  id = emu.clientId,
  secret = emu.clientSecret
): Promise<string> {
  const r = await tokenRequest(emu, id, secret);
  if (r.status !== 200) throw new Error(`token request failed: ${r.status} ${r.text}`);
  return r.body.access_token as string;
}

/** An authenticated caller: api.get('/v3.0/pinpoints'), api.post(path, json), ... */
export interface Api {
  token: string;
  get(path: string, o?: CallOptions): Promise<Res>;
  post(path: string, json?: unknown, o?: CallOptions): Promise<Res>;
  put(path: string, json?: unknown, o?: CallOptions): Promise<Res>;
  del(path: string, json?: unknown, o?: CallOptions): Promise<Res>;
  call(method: string, path: string, o?: CallOptions): Promise<Res>;
}

export async function api(emu: EmulatorHandle, token?: string): Promise<Api> {
  const t = token ?? (await getToken(emu));
  const withJson = (json: unknown, o: CallOptions = {}): CallOptions => ({
    token: t,
    ...(json === undefined ? {} : { json }),
    ...o,
  });
  return {
    token: t,
    get: (path, o) => call(emu, 'GET', path, { token: t, ...o }),
    post: (path, json, o) => call(emu, 'POST', path, withJson(json, o)),
    put: (path, json, o) => call(emu, 'PUT', path, withJson(json, o)),
    del: (path, json, o) => call(emu, 'DELETE', path, withJson(json, o)),
    call: (method, path, o) => call(emu, method, path, { token: t, ...o }),
  };
}

export const place = (name: string, extra: Record<string, unknown> = {}) => ({
  name,
  latitude: 48.8566,
  longitude: 2.3522,
  ...extra,
});

export const media = (text: string, name = 'a.png', type = 'image/png') => ({
  content: Buffer.from(text).toString('base64'),
  name,
  type,
});

export const dates = [{ start: '2018-02-16T20:00:00.000Z', end: '2018-02-16T22:00:00.000Z' }];
