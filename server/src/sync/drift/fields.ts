import { msUtc } from '../inventory/identity';
import type { ResourceKind } from '../../remote/types';
import type { FieldChange } from '../../../../shared/contracts/drift';

/**
 * Fields both sent and read back, per resource: only these can be compared. Media URLs are the
 * remote's own (it may move a file), the event's pinpoint is a request field only, altitude is
 * never read back.
 */
const COMPARED_FIELDS: Record<ResourceKind, readonly string[]> = {
  pinpoint: [
    'name',
    'description',
    'address',
    'latitude',
    'longitude',
    'category',
    'tags',
    'media_credits',
  ],
  event: ['name', 'description', 'dates', 'tags', 'media_credits'],
  category: ['name'],
  list: ['name', 'description'],
};

/** About 1 m: a remote may keep coordinates rounded to 5 decimals. */
const COORDINATE_TOLERANCE = 1e-5;

/** The part of a payload the remote accepted that a later read of the object should give back. */
export function pushedFieldsOf(
  resource: ResourceKind,
  sent: Record<string, unknown>
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of COMPARED_FIELDS[resource]) if (key in sent) out[key] = sent[key] ?? null;
  return out;
}

/**
 * Markup a remote may rewrite without changing the text: blanks, blanks between tags, the
 * spelling of empty elements and of tag names.
 */
const normalText = (v: string) =>
  v
    .normalize('NFC')
    .replace(
      /<\s*(\/?)\s*([a-zA-Z][a-zA-Z0-9]*)([^>]*?)\s*\/?\s*>/g,
      (_m, close: string, tag: string, rest: string) =>
        `<${close}${tag.toLowerCase()}${rest.replace(/\s+/g, ' ')}>`
    )
    .replace(/\s+/g, ' ')
    .replace(/>\s+</g, '><')
    .trim();

const empty = (v: unknown) => v == null || v === '' || (Array.isArray(v) && v.length === 0);

/** One text form of a list a remote may reorder (tags) or spell otherwise (dates). */
const LIST_FORMS: Record<string, (v: unknown[]) => string> = {
  tags: (v) => JSON.stringify([...new Set(v.map((t) => normalText(String(t))))].sort()),
  dates: (v) =>
    JSON.stringify(
      (v as Array<{ start?: unknown; end?: unknown } | null>).map((d) => ({
        start: msUtc(d?.start) ?? d?.start ?? null,
        end: msUtc(d?.end) ?? d?.end ?? null,
      }))
    ),
};

function same(key: string, pushed: unknown, remote: unknown): boolean {
  if (empty(pushed) && empty(remote)) return true;
  if (empty(pushed) !== empty(remote)) return false;
  if (key === 'latitude' || key === 'longitude')
    return Math.abs(Number(pushed) - Number(remote)) <= COORDINATE_TOLERANCE;
  if (key === 'category') return Number(pushed) === Number(remote);
  const norm = LIST_FORMS[key];
  if (norm) return Array.isArray(pushed) && Array.isArray(remote) && norm(pushed) === norm(remote);
  if (typeof pushed === 'string' && typeof remote === 'string')
    return normalText(pushed) === normalText(remote);
  return JSON.stringify(pushed) === JSON.stringify(remote);
}

/** Fields the remote holds otherwise than they were pushed, what it may legitimately rewrite left out. */
export function changedFields(
  resource: ResourceKind,
  pushed: Record<string, unknown>,
  remote: Record<string, unknown>
): FieldChange[] {
  const out: FieldChange[] = [];
  for (const field of COMPARED_FIELDS[resource]) {
    if (!(field in pushed)) continue;
    const after = remote[field] ?? null;
    if (!same(field, pushed[field], after)) out.push({ field, before: pushed[field], after });
  }
  return out;
}
