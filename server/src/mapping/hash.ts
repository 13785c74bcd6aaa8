import { createHash } from 'node:crypto';
import type { UpsertOutcome } from './types';

/** JSON with object keys sorted at every depth, so equal payloads hash equal whatever built them. */
export function canonicalJson(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'bigint') return JSON.stringify(value.toString());
  if (typeof value !== 'object') return JSON.stringify(value);
  if (value instanceof Date) return JSON.stringify(value.toISOString());
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const obj = value as Record<string, unknown>;
  const keys = Object.keys(obj)
    .filter((k) => obj[k] !== undefined)
    .sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson(obj[k])}`).join(',')}}`;
}

type Hashable = Pick<UpsertOutcome, 'resource' | 'payload' | 'members'>;

/** sha256 of what would reach the remote: the payload and the set of member ids (order-free). */
export function payloadHash({ resource, payload, members }: Hashable): string {
  const sorted = members && [...new Set(members)].sort((a, b) => a - b);
  const body = { resource, payload, members: sorted };
  return createHash('sha256').update(canonicalJson(body)).digest('hex');
}
