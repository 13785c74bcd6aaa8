import { RemoteError, bodyForDisplay } from './errors';
import { readWith, type Api, type ApiRequest } from './http';
import { assertId } from './payloads';
import { str } from './readers';
import type { Page } from './types';

function readPage<T>(value: unknown, read: (raw: unknown) => T): Page<T> {
  const raw = value as { count?: unknown; next?: unknown; previous?: unknown; results: unknown[] };
  if (!raw || typeof raw !== 'object' || !Array.isArray(raw.results))
    throw new Error('expected a page object with a results array');
  return {
    ...(typeof raw.count === 'number' && { count: raw.count }),
    next: str(raw.next) || null,
    previous: str(raw.previous) || null,
    results: raw.results.map(read),
  };
}

// From the first page (path and documented filter) or a `next` link kept to resume; every further
// page is the `next` link as returned, never rebuilt: the contract says its format may change.
async function* pages<T>(
  api: Api,
  path: string,
  query: ApiRequest['query'],
  read: (raw: unknown) => T,
  link?: string
): AsyncGenerator<Page<T>, void, undefined> {
  let target: string | URL = link === undefined ? path : api.resolveLink(link);
  const seen = new Set<string>();
  for (;;) {
    const response = await api.request({ method: 'GET', target, query });
    const page = readWith(response, (raw) => readPage(raw, read));
    yield page;
    if (!page.next) return;
    const next = api.resolveLink(page.next);
    // A link back to a page already read would loop forever and hammer the remote.
    if (seen.has(next.href)) {
      throw new RemoteError({
        message: `The remote returned a page link already followed on GET ${response.path}; stopped to avoid a loop`,
        code: 'server',
        retryable: false,
        body: bodyForDisplay(JSON.stringify({ next: page.next })),
        method: 'GET',
        path: response.path,
      });
    }
    seen.add(next.href);
    target = next;
  }
}

/** The documented filter of each collection's list. */
interface Filters {
  pinpoint: { list?: number }; // pinpoints of this list
  event: { pinpoint?: number }; // events at this pinpoint
  category: undefined;
  list: undefined;
}

/** What the contract offers on each collection (no delete for categories: client.ts drops it). */
export function createResourceApi<T, Req, W extends keyof Filters>(
  api: Api,
  what: W,
  path: string,
  payload: (input: Req) => unknown,
  read: (raw: unknown) => T
) {
  type F = Filters[W];
  const item = (id: number) => `${path}/${assertId(id, `${what} id`)}`;
  // The contract shows no update (nor list) answer: an empty one, or one without an id, takes the
  // id asked for, so an undocumented body does not turn success into an error.
  const withKnownId = (id: number) => (raw: unknown) => {
    if (raw == null || raw === '') return read({ id });
    if (typeof raw === 'object' && !Array.isArray(raw) && (raw as { id?: unknown }).id == null)
      return read({ ...(raw as object), id });
    return read(raw);
  };
  const send = async (method: 'GET' | 'POST' | 'PUT', target: string, body: unknown, id?: number) =>
    readWith(
      await api.request({ method, target, body }),
      id === undefined ? read : withKnownId(id)
    );
  return {
    /** One page: the first (with `filter`) or the one at a `next` link kept from an earlier page. */
    page: async (from: { link?: string; filter?: F } = {}) =>
      (await pages(api, path, from.filter, read, from.link).next()).value as Page<T>,
    async *list(filter?: F) {
      for await (const page of pages(api, path, filter, read)) yield* page.results;
    },
    get: async (id: number) => send('GET', item(id), undefined, id),
    create: async (input: Req) => send('POST', path, payload(input)),
    update: async (id: number, input: Req) => send('PUT', item(id), payload(input), id),
    /** 204 and 200 (with or without a body) both mean gone; 404 throws `not_found` for the caller to judge. */
    delete: async (id: number) => {
      await api.request({ method: 'DELETE', target: item(id) });
    },
  };
}
