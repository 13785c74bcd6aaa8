import { readWith, type Api, type ApiRequest } from './http';
import { fetchPage, items, listPages } from './pagination';
import { assertId } from './payloads';
import type { Page } from './types';

/**
 * The contract does not show update (nor list) response bodies: when the answer
 * is empty or omits the id, the id asked for stands in, so success is not
 * turned into an error by an undocumented body.
 */
function withKnownId<T>(id: number, read: (raw: unknown) => T): (raw: unknown) => T {
  return (raw) => {
    if (raw === undefined || raw === null || raw === '') return read({ id });
    if (typeof raw === 'object' && !Array.isArray(raw) && (raw as { id?: unknown }).id == null) {
      return read({ ...(raw as object), id });
    }
    return read(raw);
  };
}

/** What the contract offers on each collection (categories have no delete: see client.ts). */
export interface ResourceApi<T, Req, F extends ApiRequest['query'] = undefined> {
  list(filter?: F): AsyncGenerator<T, void, undefined>;
  listPages(filter?: F): AsyncGenerator<Page<T>, void, undefined>;
  /** One page: the first (with `filter`) or the one at a `next` link kept from an earlier page. */
  page(from?: { link?: string; filter?: F }): Promise<Page<T>>;
  get(id: number): Promise<T>;
  create(input: Req): Promise<T>;
  update(id: number, input: Req): Promise<T>;
  /** 204 and 200 (with or without a body) both mean gone; 404 throws `not_found` for the caller to judge. */
  delete(id: number): Promise<void>;
}

export interface ResourceSpec<T, Req> {
  /** the contract path of the collection, e.g. `/v3.0/pinpoints` */
  path: string;
  /** names the resource in the message of an invalid id: `pinpoint id` */
  what: string;
  /** the documented fields of a request, the only ones sent */
  payload(input: Req): unknown;
  read(raw: unknown): T;
}

export function createResourceApi<T, Req, F extends ApiRequest['query'] = undefined>(
  api: Api,
  { path, what, payload, read }: ResourceSpec<T, Req>
): ResourceApi<T, Req, F> {
  const item = (id: number) => `${path}/${assertId(id, `${what} id`)}`;
  const pages = (filter?: F) => listPages(api, path, filter, read);
  const send = async (
    method: 'GET' | 'POST' | 'PUT',
    target: string,
    body?: unknown,
    id?: number
  ) =>
    readWith(
      await api.request({ method, target, body }),
      id === undefined ? read : withKnownId(id, read)
    );
  return {
    listPages: pages,
    page: (from = {}) => fetchPage(api, path, from.filter, read, from.link),
    list: (filter) => items(pages(filter)),
    get: async (id) => send('GET', item(id), undefined, id),
    create: async (input) => send('POST', path, payload(input)),
    update: async (id, input) => send('PUT', item(id), payload(input), id),
    delete: async (id) => {
      await api.request({ method: 'DELETE', target: item(id) });
    },
  };
}
