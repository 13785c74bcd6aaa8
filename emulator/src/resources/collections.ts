/**
 * GET of a collection, paged as configured: opaque cursors (the contract) or the real service's
 * `limit`/`offset` links.
 */
import { EmulatorApiError, json, type Reply } from '../http';
import { HAND_BUILT_PARAMS, type Filters } from '../pagination';
import type { ResourceKind } from '../types';
import { withTable, type Rendered, type ResourceHost, type Table } from './tables';

/** The query parameter each collection may be filtered by (strict mode rejects others). */
export const FILTERS: Record<ResourceKind, 'list' | 'pinpoint' | null> = {
  pinpoints: 'list',
  events: 'pinpoint',
  categories: null,
  lists: null,
};

interface Page {
  count: number;
  next: string | null;
  previous: string | null;
  results: Rendered[];
}

export function listCollection(
  host: ResourceHost,
  kind: ResourceKind,
  params: URLSearchParams
): Reply {
  const offsets = host.cfg.pagination === 'offset';
  for (const p of HAND_BUILT_PARAMS) {
    if (offsets && (p === 'limit' || p === 'offset')) continue;
    if (params.has(p)) {
      throw new EmulatorApiError(400, {
        detail: `Unsupported pagination parameter "${p}": page addresses are opaque; follow the "next" and "previous" URLs as returned.`,
      });
    }
  }
  const cursorText = offsets ? null : params.get('cursor');
  const resource = `/v3.0/${kind}`;
  const cursor = cursorText !== null ? host.paginator.decode(cursorText, resource) : null;
  let filters: Filters = {};
  if (cursor) filters = cursor.f;
  else {
    const f = FILTERS[kind];
    const v = f ? params.get(f) : null;
    if (f && v !== null) {
      const n = /^\d{1,15}$/.test(v) ? Number(v) : NaN;
      const exists = f === 'list' ? host.store.lists.has(n) : host.store.pinpoints.has(n);
      if (!exists)
        throw new EmulatorApiError(400, {
          [f]: ['Select a valid choice. That choice is not one of the available choices.'],
        });
      filters = { [f]: n };
    }
  }
  return withTable(host, kind, (t) => {
    const items = t.list(filters);
    if (offsets) return json(200, offsetPage(host, kind, t, items, params, filters));
    const page = host.paginator.page(items, {
      resource,
      baseUrl: host.baseUrl,
      cursor,
      pageSize: host.cfg.pageSize,
      filters,
    });
    return json(200, {
      count: page.count,
      next: page.next,
      previous: page.previous,
      results: page.results.map((r) => t.render(r)),
    });
  });
}

/** A page as the real service pages: `limit` and `offset` in the links (previous drops offset 0). */
function offsetPage<R extends { id: number }>(
  host: ResourceHost,
  kind: ResourceKind,
  table: Table<R>,
  items: R[],
  params: URLSearchParams,
  filters: Filters
): Page {
  const int = (name: string, fallback: number, min: number): number => {
    const v = params.get(name);
    if (v === null) return fallback;
    if (!/^\d{1,9}$/.test(v) || Number(v) < min)
      throw new EmulatorApiError(400, { detail: `Invalid ${name}.` });
    return Number(v);
  };
  const limit = Math.min(int('limit', host.cfg.pageSize, 1), 10_000);
  const offset = int('offset', 0, 0);
  const link = (at: number): string => {
    const q = new URLSearchParams(
      Object.entries(filters).map(([k, v]): [string, string] => [k, String(v)])
    );
    q.set('limit', String(limit));
    if (at > 0) q.set('offset', String(at));
    return `${host.baseUrl}/v3.0/${kind}?${q}`;
  };
  const results = items.slice(offset, offset + limit);
  return {
    count: items.length,
    next: offset + limit < items.length ? link(offset + limit) : null,
    previous: offset > 0 ? link(Math.max(0, offset - limit)) : null,
    results: results.map((r) => table.render(r)),
  };
}
