import { createHash } from 'node:crypto';
import { canonicalJson } from '../../mapping/hash';
import { toMsUtc } from '../../remote/dates';
import type { ResourceKind } from '../../remote/types';

/** Kept short enough for an index on every database (MySQL's utf8mb4 key limit is 191 characters). */
const NAME_KEY_LENGTH = 191;

export const nameKeyOf = (name: unknown): string =>
  String(name ?? '')
    .normalize('NFC')
    .trim()
    .replace(/\s+/g, ' ')
    .toLowerCase()
    .slice(0, NAME_KEY_LENGTH);

/** A date as ms UTC, null when it is none. */
export const msUtc = (value: unknown): string | null => {
  if (typeof value !== 'string' || !value) return null;
  try {
    return toMsUtc(value);
  } catch {
    return null;
  }
};

const finite = (v: unknown): number | null =>
  typeof v === 'number' && Number.isFinite(v) ? v : null;

/**
 * What the inventory keeps of one remote object (documented fields only): enough to recognise it,
 * and a hash to see it change. Dates are hashed in one form, so a remote that answers them in
 * another ISO 8601 form changes nothing.
 */
export function identityOf(resource: ResourceKind, remote: Record<string, unknown>) {
  const { id: _id, ...fields } = remote;
  type DateRange = { start?: unknown; end?: unknown } | null;
  const dates = Array.isArray(fields.dates) ? (fields.dates as DateRange[]) : null;
  if (dates)
    fields.dates = dates.map((d) => ({
      start: msUtc(d?.start) ?? d?.start,
      end: msUtc(d?.end) ?? d?.end,
    }));
  return {
    name: typeof remote.name === 'string' ? remote.name : null,
    // What matching compares.
    nameKey: nameKeyOf(remote.name),
    latitude: resource === 'pinpoint' ? finite(remote.latitude) : null,
    longitude: resource === 'pinpoint' ? finite(remote.longitude) : null,
    // Event answers do not carry their pinpoint (the contract lists it as a request field only).
    pinpoint: resource === 'event' ? finite(remote.pinpoint) : null,
    firstStart: resource === 'event' ? msUtc(dates?.[0]?.start) : null,
    fieldsHash: createHash('sha256').update(canonicalJson({ resource, fields })).digest('hex'),
    // What a drift check compares.
    fields,
  };
}

export type RemoteIdentity = ReturnType<typeof identityOf>;
