import { RemoteError, bodyForDisplay } from './errors';
import { readWith, type Api, type ApiRequest } from './http';
import type { Page } from './types';

/**
 * One page of a collection: the first one (the contract path plus its documented filter) when
 * `link` is undefined, else the page at a `next` link as the remote returned it, never rebuilt.
 * A caller that walks page by page (and keeps the link to resume) uses this.
 */
export async function fetchPage<T>(
  api: Api,
  path: string,
  query: ApiRequest['query'],
  read: (raw: unknown) => T,
  link?: string
): Promise<Page<T>> {
  const response = await api.request(
    link === undefined
      ? { method: 'GET', target: path, query }
      : { method: 'GET', target: api.resolveLink(link) }
  );
  return readWith(response, (raw) => readPage(raw, read));
}

/**
 * Walks a collection page by page. Only the first URL is built (the contract
 * path plus its documented filter); every further page is the `next` link as
 * returned, because the contract says its format may change at any time.
 */
export async function* listPages<T>(
  api: Api,
  path: string,
  query: ApiRequest['query'],
  read: (raw: unknown) => T
): AsyncGenerator<Page<T>, void, undefined> {
  let target: string | URL = path;
  const seen = new Set<string>();
  for (;;) {
    const response = await api.request({
      method: 'GET',
      target,
      query: target === path ? query : undefined,
    });
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

function readPage<T>(value: unknown, read: (raw: unknown) => T): Page<T> {
  if (
    !value ||
    typeof value !== 'object' ||
    !Array.isArray((value as { results?: unknown }).results)
  ) {
    throw new Error('expected a page object with a results array');
  }
  const raw = value as { count?: unknown; next?: unknown; previous?: unknown; results: unknown[] };
  const page: Page<T> = {
    next: typeof raw.next === 'string' && raw.next !== '' ? raw.next : null,
    previous: typeof raw.previous === 'string' && raw.previous !== '' ? raw.previous : null,
    results: raw.results.map(read),
  };
  if (typeof raw.count === 'number') page.count = raw.count;
  return page;
}

export async function* items<T>(pages: AsyncIterable<Page<T>>): AsyncGenerator<T, void, undefined> {
  for await (const page of pages) yield* page.results;
}
