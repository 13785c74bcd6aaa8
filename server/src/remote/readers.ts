import type {
  Category,
  DateRange,
  MembershipResult,
  Pinpoint,
  RemoteEvent,
  RemoteList,
} from './types';

/**
 * Responses carry many unlisted fields (`created`, `status`, `author`, …) that
 * may change at any time. Readers copy only the listed ones, and accept the
 * loose forms a Django service is known to produce (decimals as strings).
 */

export class UnexpectedShapeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UnexpectedShapeError';
  }
}

type Raw = Record<string, unknown>;

function record(value: unknown, what: string): Raw {
  if (!value || typeof value !== 'object' || Array.isArray(value)) {
    throw new UnexpectedShapeError(
      `expected a ${what} object, got ${value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value}`
    );
  }
  return value as Raw;
}

function id(raw: Raw, what: string): number {
  const value = typeof raw.id === 'string' && /^\d+$/.test(raw.id) ? Number(raw.id) : raw.id;
  if (typeof value !== 'number' || !Number.isSafeInteger(value)) {
    throw new UnexpectedShapeError(`${what} without an integer id`);
  }
  return value;
}

function str(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

function num(value: unknown): number | undefined {
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  if (typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value)))
    return Number(value);
  return undefined;
}

function nullableStr(raw: Raw, key: string): string | null | undefined {
  return raw[key] === null ? null : str(raw[key]);
}

function strings(value: unknown): string[] | undefined {
  if (!Array.isArray(value)) return undefined;
  return value.filter((v) => typeof v === 'string' || typeof v === 'number').map(String);
}

function reference(value: unknown): number | null | undefined {
  if (value === null) return null;
  const direct = num(value);
  if (direct !== undefined) return direct;
  if (value && typeof value === 'object') return num((value as Raw).id);
  return undefined;
}

function set<T, K extends keyof T>(target: T, key: K, value: T[K] | undefined): void {
  if (value !== undefined) target[key] = value;
}

export function readPinpoint(value: unknown): Pinpoint {
  const raw = record(value, 'pinpoint');
  const out: Pinpoint = { id: id(raw, 'pinpoint') };
  set(out, 'name', str(raw.name));
  set(out, 'description', str(raw.description));
  set(out, 'address', str(raw.address));
  set(out, 'latitude', num(raw.latitude));
  set(out, 'longitude', num(raw.longitude));
  set(out, 'category', reference(raw.category));
  set(out, 'tags', strings(raw.tags));
  set(out, 'media_credits', str(raw.media_credits));
  set(out, 'media_url', nullableStr(raw, 'media_url'));
  return out;
}

/** Dates are kept as received (any ISO 8601 form): compare them through `toMsUtc`. */
function dates(value: unknown): DateRange[] | undefined {
  if (!Array.isArray(value)) return undefined;
  return value
    .filter((d): d is Raw => !!d && typeof d === 'object')
    .map((d) => ({ start: str(d.start) ?? '', end: str(d.end) ?? '' }));
}

export function readEvent(value: unknown): RemoteEvent {
  const raw = record(value, 'event');
  const out: RemoteEvent = { id: id(raw, 'event') };
  set(out, 'name', str(raw.name));
  set(out, 'description', str(raw.description));
  set(out, 'dates', dates(raw.dates));
  set(out, 'tags', strings(raw.tags));
  set(out, 'media_credits', str(raw.media_credits));
  set(out, 'media_url', nullableStr(raw, 'media_url'));
  return out;
}

export function readCategory(value: unknown): Category {
  const raw = record(value, 'category');
  const out: Category = { id: id(raw, 'category') };
  set(out, 'name', str(raw.name));
  set(out, 'image_url', nullableStr(raw, 'image_url'));
  return out;
}

export function readList(value: unknown): RemoteList {
  const raw = record(value, 'list');
  const out: RemoteList = { id: id(raw, 'list') };
  set(out, 'name', str(raw.name));
  set(out, 'description', str(raw.description));
  return out;
}

/** Kept as received: the shape of an `errors` entry is undocumented. */
export function readMembership(value: unknown): MembershipResult {
  const raw = record(value, 'membership result');
  const errors = Array.isArray(raw.errors) ? raw.errors : raw.errors == null ? [] : [raw.errors];
  const total = num(raw.total);
  if (total === undefined) throw new UnexpectedShapeError('membership result without a total');
  return { errors, total };
}
