/** Request log (bounded ring buffer) and counters. Control routes (/__emulator/) are not recorded. */
import type { EmulatorStats, RequestFilter, RequestLogEntry } from './types';

/** Kind of a path for the stats: ids become :id, media paths collapse. */
export function pathKind(path: string): string {
  if (path.startsWith('/images/')) return '/images/*';
  const m = /^\/v3\.0\/(lists|pinpoints|events|categories)(?:\/(\d+)(\/pinpoints)?)?\/?$/.exec(
    path
  );
  if (m) return `/v3.0/${m[1]}${m[2] ? '/:id' : ''}${m[3] ?? ''}`;
  if (path === '/v3.0/oauth2/token' || path === '/v3.0/oauth2/token/') return '/v3.0/oauth2/token';
  return 'unknown';
}

const LONG = 256;

/** A copy of a body fit for the log: long strings (base64) shortened, secrets redacted. */
export function redactBody(v: unknown, depth = 0): unknown {
  if (typeof v === 'string') return v.length > LONG ? `[${v.length} chars]` : v;
  if (v === null || typeof v !== 'object' || depth > 8) return v;
  if (Array.isArray(v))
    return v.length > 1000 ? `[array of ${v.length}]` : v.map((x) => redactBody(x, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v as Record<string, unknown>)) {
    out[k] = k === 'client_secret' || k === 'password' ? '[redacted]' : redactBody(x, depth + 1);
  }
  return out;
}

export function redactHeaders(
  h: Record<string, string | string[] | undefined>
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(h)) {
    if (v === undefined) continue;
    const s = Array.isArray(v) ? v.join(', ') : v;
    if (k === 'authorization' || k === 'proxy-authorization' || k === 'cookie') {
      const scheme = s.split(' ')[0] ?? '';
      out[k] = `${scheme} [redacted]`.trim();
    } else out[k] = s;
  }
  return out;
}

export class RequestLog {
  private buf: (RequestLogEntry | undefined)[];
  private head = 0;
  private size = 0;
  private seq = 0;
  private counters!: EmulatorStats;

  constructor(private capacity: number) {
    if (!Number.isInteger(capacity) || capacity < 1)
      throw new TypeError('requestLogSize must be an integer >= 1');
    this.buf = new Array(capacity);
    this.resetStats();
  }

  nextSeq(): number {
    return ++this.seq;
  }

  add(e: RequestLogEntry): void {
    this.buf[this.head] = e;
    this.head = (this.head + 1) % this.capacity;
    if (this.size < this.capacity) this.size++;
    const s = this.counters;
    const kind = pathKind(e.path.split('?', 1)[0]!);
    const status = e.status === null ? 'reset' : String(e.status);
    s.total++;
    s.byMethod[e.method] = (s.byMethod[e.method] ?? 0) + 1;
    s.byPathKind[kind] = (s.byPathKind[kind] ?? 0) + 1;
    s.byStatus[status] = (s.byStatus[status] ?? 0) + 1;
    const route = `${e.method} ${kind}`;
    const r = (s.byRoute[route] ??= {});
    r[status] = (r[status] ?? 0) + 1;
    if (e.status === 429) s.throttled++;
    if (e.status === null) s.resets++;
    if (e.fault) s.faultsInjected++;
  }

  list(filter: RequestFilter = {}): RequestLogEntry[] {
    const out: RequestLogEntry[] = [];
    const start = (this.head - this.size + this.capacity) % this.capacity;
    const method = filter.method?.toUpperCase();
    for (let i = 0; i < this.size; i++) {
      const e = this.buf[(start + i) % this.capacity]!;
      if (method && e.method !== method) continue;
      if (filter.pathPrefix && !e.path.startsWith(filter.pathPrefix)) continue;
      if (filter.since !== undefined && e.seq <= filter.since) continue;
      out.push(e);
    }
    const sliced =
      filter.limit !== undefined && filter.limit >= 0
        ? out.slice(Math.max(0, out.length - filter.limit))
        : out;
    return structuredClone(sliced);
  }

  clear(): void {
    this.buf = new Array(this.capacity);
    this.head = 0;
    this.size = 0;
  }

  stats(): EmulatorStats {
    return structuredClone(this.counters);
  }

  resetStats(): void {
    this.counters = {
      startedAt: new Date().toISOString(),
      total: 0,
      byMethod: {},
      byPathKind: {},
      byStatus: {},
      byRoute: {},
      throttled: 0,
      resets: 0,
      faultsInjected: 0,
    };
  }
}
