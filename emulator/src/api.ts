/**
 * The API itself, behind the pipeline: token endpoint | media | /v3.0 resources, the latter in
 * DRF's order (auth 401 -> scope 403 -> rate limit 429 -> 405 -> strict query 400 ->
 * 415/400 body -> handler).
 */
import type { IncomingMessage } from 'node:http';
import { Auth, type AuthedClient } from './auth';
import {
  allowHeader,
  EmulatorApiError,
  json,
  mediaTypeOf,
  methodNotAllowed,
  notFound,
  parseJsonBody,
  type Reply,
} from './http';
import { HAND_BUILT_PARAMS } from './pagination';
import { redactBody } from './requestlog';
import { FILTERS, listCollection } from './resources/collections';
import { changeMembership } from './resources/membership';
import { createObject, deleteObject, readObject, updateObject } from './resources/objects';
import type { ResourceHost } from './resources/tables';
import type { Emulator } from './server';
import type { RequestLogEntry, ResourceKind } from './types';
import { validateMembership } from './validation';

/** What the API reads of the emulator: the resources' part, auth, the rate limiter, media. */
export type ApiHost = ResourceHost & Pick<Emulator, 'auth' | 'limiter' | 'media'>;

/** One request as the API sees it, its body read; `entry` is its request log line, filled in. */
export interface RequestCtx {
  method: string;
  path: string;
  query: string;
  headers: IncomingMessage['headers'];
  body: Buffer;
  entry: RequestLogEntry;
}

const API_PATH = /^\/v3\.0\/(lists|pinpoints|events|categories)(?:\/([^/]+?)(\/pinpoints)?)?\/?$/;
const TOKEN_PATHS = new Set(['/v3.0/oauth2/token', '/v3.0/oauth2/token/']);
const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

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

/** What a /v3.0 path addresses. */
type Target =
  | { at: 'collection'; kind: ResourceKind }
  | { at: 'item'; kind: ResourceKind; id: number }
  | { at: 'members'; kind: 'lists'; id: number };

/** The target of an API path; 404 for any other path, as the real service answers. */
function targetOf(path: string): Target {
  const m = API_PATH.exec(path);
  if (!m) throw notFound();
  const kind = m[1] as ResourceKind;
  const idText = m[2];
  if (idText === undefined) return { at: 'collection', kind };
  if (!/^\d{1,15}$/.test(idText)) throw notFound();
  const id = Number(idText);
  if (m[3] === undefined) return { at: 'item', kind, id };
  if (kind !== 'lists') throw notFound();
  return { at: 'members', kind, id };
}

export function routeApi(host: ApiHost, ctx: RequestCtx): Reply {
  const { method, path } = ctx;
  if (TOKEN_PATHS.has(path)) return tokenEndpoint(host, ctx);
  if (path.startsWith('/images/')) return serveMedia(host, ctx);
  const target = targetOf(path);
  const { kind } = target;

  // DRF order: authentication, permission, throttling, then the method handler.
  const client = authenticate(host, ctx);
  if (WRITE_METHODS.has(method) && !client.canWrite) {
    throw new EmulatorApiError(403, {
      detail: 'You do not have permission to perform this action.',
    });
  }
  if (host.cfg.rateLimit) host.limiter.take(client.clientId, host.cfg.rateLimit);

  const allowed =
    target.at === 'members'
      ? ['POST', 'DELETE']
      : target.at === 'collection'
        ? COLLECTION_METHODS[kind]
        : ITEM_METHODS[kind];
  const verb = method === 'HEAD' ? 'GET' : method;
  if (method === 'OPTIONS')
    return json(
      200,
      { name: kind, renders: ['application/json'], parses: ['application/json'] },
      { allow: allowHeader(allowed) }
    );
  if (!allowed.includes(verb)) throw methodNotAllowed(method, allowed);

  const params = new URLSearchParams(ctx.query);
  if (host.cfg.strict) {
    const ok = new Set<string>();
    if (target.at === 'collection' && verb === 'GET') {
      ok.add('cursor');
      const f = FILTERS[kind];
      if (f) ok.add(f);
    }
    const unknown: Record<string, string[]> = {};
    for (const k of params.keys())
      if (!ok.has(k) && !HAND_BUILT_PARAMS.includes(k)) unknown[k] = ['Unknown query parameter.'];
    if (Object.keys(unknown).length) throw new EmulatorApiError(400, unknown);
  }

  switch (target.at) {
    case 'members': {
      const ids = validateMembership(parseJson(ctx), host.cfg.strict);
      return changeMembership(host, target.id, ids, verb === 'POST');
    }
    case 'collection':
      if (verb === 'GET') return listCollection(host, kind, params);
      return json(201, createObject(host, kind, parseJson(ctx)));
    case 'item':
      if (verb === 'GET') return json(200, readObject(host, kind, target.id));
      if (verb === 'PUT') return json(200, updateObject(host, kind, target.id, parseJson(ctx)));
      deleteObject(host, kind, target.id);
      return { status: 204 };
  }
}

function authenticate(host: ApiHost, ctx: RequestCtx): AuthedClient {
  const client = host.auth.authenticate(ctx.headers.authorization);
  ctx.entry.clientId = client.clientId;
  return client;
}

function parseJson(ctx: RequestCtx): unknown {
  if (ctx.body.length === 0) return {};
  const type = mediaTypeOf(ctx.headers['content-type']);
  if (type !== 'application/json') {
    throw new EmulatorApiError(415, {
      detail: `Unsupported media type "${ctx.headers['content-type'] ?? ''}" in request.`,
    });
  }
  const value = parseJsonBody(ctx.body);
  ctx.entry.body = redactBody(value);
  return value;
}

function tokenEndpoint(host: ApiHost, ctx: RequestCtx): Reply {
  if (ctx.method !== 'POST') throw methodNotAllowed(ctx.method, ['POST']);
  const basicId = Auth.basicClientId(ctx.headers.authorization);
  if (host.cfg.rateLimit?.includeTokenRequests)
    host.limiter.take(basicId ?? 'anonymous', host.cfg.rateLimit);
  ctx.entry.clientId = basicId;
  const { token, form } = host.auth.tokenRequest(
    { authorization: ctx.headers.authorization, 'content-type': ctx.headers['content-type'] },
    ctx.body,
    host.cfg.strict,
    host.cfg.tokenTtl
  );
  ctx.entry.body = redactBody(form);
  return json(200, token, { 'cache-control': 'no-store', pragma: 'no-cache' });
}

function serveMedia(host: ApiHost, ctx: RequestCtx): Reply {
  if (ctx.method !== 'GET' && ctx.method !== 'HEAD') throw methodNotAllowed(ctx.method, ['GET']);
  let p = ctx.path;
  try {
    p = decodeURIComponent(p);
  } catch {
    throw notFound();
  }
  const m = host.media.get(p);
  if (!m) throw notFound();
  const etag = `"${m.sha256.slice(0, 32)}"`;
  const headers = { 'content-type': m.type, etag, 'cache-control': 'public, max-age=86400' };
  if (ctx.headers['if-none-match'] === etag) return { status: 304, headers };
  return { status: 200, body: m.bytes, raw: true, headers };
}
