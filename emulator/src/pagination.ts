/**
 * Cursor pagination: {count, next, previous, results}, ordered by id ascending.
 * `next`/`previous` are absolute URLs carrying only an opaque, signed cursor
 * (base64url of JSON: resource, direction, key, page size, filters). A client that
 * builds page URLs itself (offset=, page=, a forged cursor) gets a 4xx.
 */
import { createHmac, randomBytes } from 'node:crypto';
import { EmulatorApiError } from './http';

export type Filters = Record<string, number>;

interface CursorData {
  /** resource path, e.g. /v3.0/pinpoints */
  r: string;
  /** direction: n = ids after k, p = ids before k */
  d: 'n' | 'p';
  k: number;
  /** page size */
  s: number;
  f: Filters;
  /** signature */
  h?: string;
}

/** Query parameters of hand-built pagination: answered 400 instead of silently ignored. */
export const HAND_BUILT_PARAMS = [
  'offset',
  'limit',
  'page',
  'page_size',
  'per_page',
  'start',
  'after',
  'before',
];

export class Paginator {
  private readonly key = randomBytes(16);

  private sign(d: CursorData): string {
    return createHmac('sha256', this.key)
      .update(`${d.r}|${d.d}|${d.k}|${d.s}|${JSON.stringify(d.f)}`)
      .digest('base64url')
      .slice(0, 16);
  }

  encode(d: CursorData): string {
    return Buffer.from(JSON.stringify({ ...d, h: this.sign(d) })).toString('base64url');
  }

  decode(cursor: string, resource: string): CursorData {
    const invalid = new EmulatorApiError(404, { detail: 'Invalid cursor' });
    let d: CursorData;
    try {
      d = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as CursorData;
    } catch {
      throw invalid;
    }
    if (
      !d ||
      typeof d !== 'object' ||
      d.r !== resource ||
      (d.d !== 'n' && d.d !== 'p') ||
      !Number.isSafeInteger(d.k) ||
      !Number.isSafeInteger(d.s) ||
      d.s < 1 ||
      !d.f ||
      typeof d.f !== 'object' ||
      typeof d.h !== 'string' ||
      d.h !== this.sign(d)
    ) {
      throw invalid;
    }
    return d;
  }

  /**
   * One page of `items` (already filtered, ascending by id).
   * `cursor`: the raw cursor query value or null for the first page.
   */
  page<T extends { id: number }>(
    items: T[],
    opts: {
      resource: string;
      baseUrl: string;
      cursor: CursorData | null;
      pageSize: number;
      filters: Filters;
    }
  ): { count: number; next: string | null; previous: string | null; results: T[] } {
    const c = opts.cursor;
    const size = c ? c.s : opts.pageSize;
    const filters = c ? c.f : opts.filters;
    let start: number;
    let end: number;
    if (!c) {
      start = 0;
      end = Math.min(items.length, size);
    } else if (c.d === 'n') {
      start = firstIndexAbove(items, c.k);
      end = Math.min(items.length, start + size);
    } else {
      end = firstIndexAbove(items, c.k - 1); // first index with id >= k
      start = Math.max(0, end - size);
    }
    const results = items.slice(start, end);
    const url = (d: 'n' | 'p', k: number): string =>
      `${opts.baseUrl}${opts.resource}?cursor=${this.encode({ r: opts.resource, d, k, s: size, f: filters })}`;
    let next: string | null = null;
    let previous: string | null = null;
    if (end < items.length)
      next = url('n', results.length ? results[results.length - 1]!.id : items[end]!.id - 1);
    if (start > 0) previous = url('p', results.length ? results[0]!.id : items[start - 1]!.id + 1);
    return { count: items.length, next, previous, results };
  }
}

/** Index of the first item whose id is > k (binary search). */
function firstIndexAbove<T extends { id: number }>(items: T[], k: number): number {
  let lo = 0;
  let hi = items.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (items[mid]!.id <= k) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
