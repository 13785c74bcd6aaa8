import { createApi, readWith } from './http';
import {
  assertId,
  categoryPayload,
  eventPayload,
  listPayload,
  membershipPayload,
  pinpointPayload,
} from './payloads';
import { readCategory, readEvent, readList, readMembership, readPinpoint } from './readers';
import { createRedactor } from './redact';
import { createResourceApi } from './resource';
import { createTokenSource } from './token';
import { createTransport, httpFetch, safeLogger, type FetchLike, type Logger } from './transport';
import type { MembershipResult } from './types';

export interface RemoteClientOptions {
  /** e.g. https://api.getwemap.com; contract paths (`/v3.0/...`) are appended to it */
  baseUrl: string;
  clientId: string;
  clientSecret: string;
  /** defaults to the plugin's one HTTP client (transport.ts's httpFetch) */
  fetch?: FetchLike;
  /** per HTTP attempt, body included */
  timeoutMs: number;
  logger?: Logger;
}

export type RemoteClient = ReturnType<typeof createRemoteClient>;

function parseBaseUrl(value: string): URL {
  const url = URL.parse(value);
  if (!url) throw new TypeError(`Invalid base URL: ${JSON.stringify(value)}`);
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new TypeError(`Invalid base URL: ${JSON.stringify(value)} (expected http or https)`);
  }
  if (url.username || url.password || url.search || url.hash) {
    throw new TypeError('Invalid base URL: it must not carry credentials, a query or a fragment');
  }
  return url;
}

export function createRemoteClient(options: RemoteClientOptions) {
  const baseUrl = parseBaseUrl(options.baseUrl);
  if (!options.clientId) throw new TypeError('clientId is required');
  if (!options.clientSecret) throw new TypeError('clientSecret is required');
  const basic = Buffer.from(`${options.clientId}:${options.clientSecret}`).toString('base64');
  const redactor = createRedactor([options.clientSecret, basic]);
  const logger = safeLogger(options.logger, redactor);
  const transport = createTransport({
    fetch: options.fetch ?? httpFetch,
    timeoutMs: options.timeoutMs,
    redactor,
  });
  const tokens = createTokenSource({
    transport,
    baseUrl,
    clientId: options.clientId,
    basic,
    redactor,
  });
  const api = createApi({ transport, tokens, baseUrl, redactor, logger });
  const { delete: _noDelete, ...categories } = createResourceApi(
    api,
    'category',
    '/v3.0/categories',
    categoryPayload,
    readCategory
  );
  const membership =
    (method: 'POST' | 'DELETE') =>
    async (listId: number, ids: readonly number[]): Promise<MembershipResult> => {
      const target = `/v3.0/lists/${assertId(listId, 'list id')}/pinpoints`;
      const body = membershipPayload(ids);
      // Nothing to change: an empty array would only spend a call of the rate limit.
      if (body.length === 0) return { errors: [], total: 0 };
      return readWith(await api.request({ method, target, body }), readMembership);
    };

  return {
    pinpoints: createResourceApi(api, 'pinpoint', '/v3.0/pinpoints', pinpointPayload, readPinpoint),
    events: createResourceApi(api, 'event', '/v3.0/events', eventPayload, readEvent),
    categories,
    lists: {
      ...createResourceApi(api, 'list', '/v3.0/lists', listPayload, readList),
      addPinpoints: membership('POST'),
      removePinpoints: membership('DELETE'),
    },
    /** Gets a token now: a "test connection" that proves the credentials without touching data. */
    async authenticate() {
      await tokens.get();
    },
  };
}
