import type { Category, MembershipResult, Pinpoint, RemoteEvent, RemoteList } from './types';

// Answers carry unlisted fields (`created`, `status`, `author`, …) that may change at any time:
// readers copy only the listed ones, in the loose forms a Django service makes (numbers as strings).

type Raw = Record<string, unknown>;

function record(value: unknown, what: string): Raw {
  if (!value || typeof value !== 'object' || Array.isArray(value)) {
    throw new Error(
      `expected a ${what} object, got ${value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value}`
    );
  }
  return value as Raw;
}

export const str = (value: unknown) => (typeof value === 'string' ? value : undefined);
const nullableStr = (value: unknown) => (value === null ? null : str(value));

export function num(value: unknown): number | undefined {
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  if (typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value)))
    return Number(value);
  return undefined;
}

const strings = (value: unknown) =>
  Array.isArray(value)
    ? value.filter((v) => typeof v === 'string' || typeof v === 'number').map(String)
    : undefined;

const reference = (value: unknown) =>
  value === null
    ? null
    : (num(value) ?? (value && typeof value === 'object' ? num((value as Raw).id) : undefined));

/** Dates are kept as received (any ISO 8601 form): compare them through `toMsUtc`. */
const dates = (value: unknown) =>
  Array.isArray(value)
    ? value
        .filter((d): d is Raw => !!d && typeof d === 'object')
        .map((d) => ({ start: str(d.start) ?? '', end: str(d.end) ?? '' }))
    : undefined;

/** A reader per resource: the integer id, then each listed field its own reader does not drop. */
function reader<T extends { id: number }>(
  what: string,
  fields: { [K in Exclude<keyof T, 'id'>]-?: (value: unknown) => T[K] | undefined }
) {
  const entries = Object.entries(fields) as Array<[string, (value: unknown) => unknown]>;
  return (value: unknown): T => {
    const raw = record(value, what);
    const id = typeof raw.id === 'string' && /^\d+$/.test(raw.id) ? Number(raw.id) : raw.id;
    if (typeof id !== 'number' || !Number.isSafeInteger(id))
      throw new Error(`${what} without an integer id`);
    const out: Raw = { id };
    for (const [key, read] of entries) {
      const v = read(raw[key]);
      if (v !== undefined) out[key] = v;
    }
    return out as T;
  };
}

export const readPinpoint = reader<Pinpoint>('pinpoint', {
  name: str,
  description: str,
  address: str,
  latitude: num,
  longitude: num,
  category: reference,
  tags: strings,
  media_credits: str,
  media_url: nullableStr,
});
export const readEvent = reader<RemoteEvent>('event', {
  name: str,
  description: str,
  dates,
  tags: strings,
  media_credits: str,
  media_url: nullableStr,
});
export const readCategory = reader<Category>('category', { name: str, image_url: nullableStr });
export const readList = reader<RemoteList>('list', { name: str, description: str });

export function readMembership(value: unknown): MembershipResult {
  const raw = record(value, 'membership result');
  const errors = Array.isArray(raw.errors) ? raw.errors : raw.errors == null ? [] : [raw.errors];
  const total = num(raw.total);
  if (total === undefined) throw new Error('membership result without a total');
  return { errors, total };
}
