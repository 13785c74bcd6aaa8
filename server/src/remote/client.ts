import { createApi } from './http';
import { createListsApi, type ListsApi } from './lists';
import { categoryPayload, eventPayload, pinpointPayload } from './payloads';
import { readCategory, readEvent, readPinpoint } from './readers';
import { createRedactor } from './redact';
import { createResourceApi, type ResourceApi } from './resource';
import { createTokenSource } from './token';
import {
  createTransport,
  httpFetch,
  safeLogger,
  type FetchLike,
  type Logger,
  type RequestInfo,
  type ResponseInfo,
} from './transport';

import type {
  Category,
  CategoryRequest,
  EventRequest,
  Pinpoint,
  PinpointRequest,
  RemoteEvent,
} from './types';

export type PinpointFilter = {
  /** only pinpoints of this list */
  list?: number;
};
export type EventFilter = {
  /** only events at this pinpoint */
  pinpoint?: number;
};
export type PinpointsApi = ResourceApi<Pinpoint, PinpointRequest, PinpointFilter>;
/** Dates are sent as ms-precision UTC whatever ISO 8601 form they come in. */
export type EventsApi = ResourceApi<RemoteEvent, EventRequest, EventFilter>;
/** The contract lists no delete for categories, so none is offered. */
export type CategoriesApi = Omit<ResourceApi<Category, CategoryRequest>, 'delete'>;

export const DEFAULT_TIMEOUT_MS = 30_000;
export const DEFAULT_USER_AGENT = 'strapi-plugin-location-content';

export interface RemoteClientOptions {
  /** e.g. https://api.getwemap.com; contract paths (`/v3.0/...`) are appended to it */
  baseUrl: string;
  clientId: string;
  clientSecret: string;
  /** defaults to the plugin's one HTTP client (transport.ts's httpFetch) */
  fetch?: FetchLike;
  /** per HTTP attempt, body included; default 30000 */
  timeoutMs?: number;
  logger?: Logger;
  userAgent?: string;
  /** called before every HTTP request (token requests included), for metrics */
  onRequest?(info: RequestInfo): void;
  /** called after every HTTP request, with `status` undefined when none arrived */
  onResponse?(info: ResponseInfo): void;
  /** clock for token expiry; tests only */
  now?: () => number;
}

export interface RemoteClient {
  readonly baseUrl: string;
  readonly pinpoints: PinpointsApi;
  readonly events: EventsApi;
  readonly categories: CategoriesApi;
  readonly lists: ListsApi;
  /** Gets a token now: a "test connection" that proves the credentials without touching data. */
  authenticate(): Promise<void>;
  /** Forgets the cached token, e.g. after the credentials changed. */
  resetToken(): void;
}

function parseBaseUrl(value: string): URL {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new TypeError(`Invalid base URL: ${JSON.stringify(value)}`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new TypeError(`Invalid base URL: ${JSON.stringify(value)} (expected http or https)`);
  }
  if (url.username || url.password || url.search || url.hash) {
    throw new TypeError('Invalid base URL: it must not carry credentials, a query or a fragment');
  }
  return url;
}

export function createRemoteClient(options: RemoteClientOptions): RemoteClient {
  const baseUrl = parseBaseUrl(options.baseUrl);
  if (!options.clientId) throw new TypeError('clientId is required');
  if (!options.clientSecret) throw new TypeError('clientSecret is required');
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  if (!(timeoutMs > 0))
    throw new TypeError(`timeoutMs must be a positive number, got ${timeoutMs}`);

  const redactor = createRedactor([options.clientSecret]);
  const logger = safeLogger(options.logger, redactor);
  const transport = createTransport({
    fetch: options.fetch ?? httpFetch,
    timeoutMs,
    userAgent: options.userAgent ?? DEFAULT_USER_AGENT,
    redactor,
    logger,
    hooks: { onRequest: options.onRequest, onResponse: options.onResponse },
  });
  const tokens = createTokenSource({
    transport,
    baseUrl,
    clientId: options.clientId,
    clientSecret: options.clientSecret,
    redactor,
    logger,
    now: options.now ?? Date.now,
  });
  const api = createApi({ transport, tokens, baseUrl, redactor, logger });
  const pinpoints: PinpointsApi = createResourceApi(api, {
    path: '/v3.0/pinpoints',
    what: 'pinpoint',
    payload: pinpointPayload,
    read: readPinpoint,
  });
  const events: EventsApi = createResourceApi(api, {
    path: '/v3.0/events',
    what: 'event',
    payload: eventPayload,
    read: readEvent,
  });
  const { delete: _noDelete, ...categories } = createResourceApi(api, {
    path: '/v3.0/categories',
    what: 'category',
    payload: categoryPayload,
    read: readCategory,
  });

  return {
    baseUrl: baseUrl.href.replace(/\/+$/, ''),
    pinpoints,
    events,
    categories,
    lists: createListsApi(api),
    async authenticate() {
      await tokens.get();
    },
    resetToken: () => tokens.clear(),
  };
}
