import { toMsUtc } from './dates';
import type {
  CategoryRequest,
  DateRange,
  EventRequest,
  ListRequest,
  MediaFile,
  PinpointRequest,
} from './types';

/**
 * The contract forbids sending anything it does not list. Every request body
 * is rebuilt here from a whitelist, so an extra key on the input (a Strapi
 * field, an id, a typo) can never leave the process.
 */

// `satisfies` keeps each list checked against its request type; `AllKeys`
// below fails the build when the type gains a field the list misses.
const PINPOINT_FIELDS = [
  'name',
  'description',
  'address',
  'latitude',
  'longitude',
  'altitude',
  'category',
  'tags',
  'media_credits',
  'media_file',
] as const satisfies readonly (keyof PinpointRequest)[];
const EVENT_FIELDS = [
  'name',
  'description',
  'dates',
  'pinpoint',
  'tags',
  'media_credits',
  'media_file',
] as const satisfies readonly (keyof EventRequest)[];
const CATEGORY_FIELDS = [
  'name',
  'image_file',
] as const satisfies readonly (keyof CategoryRequest)[];
const LIST_FIELDS = ['name', 'description'] as const satisfies readonly (keyof ListRequest)[];
const MEDIA_FIELDS = ['content', 'name', 'type'] as const satisfies readonly (keyof MediaFile)[];

type AllKeys<T, L extends readonly (keyof T)[]> =
  Exclude<keyof T, L[number]> extends never ? true : never;
const complete: [
  AllKeys<PinpointRequest, typeof PINPOINT_FIELDS>,
  AllKeys<EventRequest, typeof EVENT_FIELDS>,
  AllKeys<CategoryRequest, typeof CATEGORY_FIELDS>,
  AllKeys<ListRequest, typeof LIST_FIELDS>,
  AllKeys<MediaFile, typeof MEDIA_FIELDS>,
] = [true, true, true, true, true];
void complete;

function pick<T extends object>(input: T, fields: readonly (keyof T)[]): Partial<T> {
  const out: Partial<T> = {};
  if (input === null || typeof input !== 'object') return out;
  for (const field of fields) {
    if (!Object.prototype.hasOwnProperty.call(input, field)) continue;
    const value = input[field];
    if (value !== undefined) out[field] = value;
  }
  return out;
}

/** null is kept: it removes the media an object has (a PUT that merges keeps an omitted one). */
function mediaFile(input: MediaFile | null | undefined): MediaFile | null | undefined {
  if (input === undefined) return undefined;
  if (input === null) return null;
  return pick(input, MEDIA_FIELDS) as MediaFile;
}

function tags(input: string[] | undefined): string[] | undefined {
  if (input === undefined || input === null) return undefined;
  return Array.isArray(input) ? input.map(String) : input;
}

function dateRange(input: DateRange): DateRange {
  return { start: toMsUtc(input.start), end: toMsUtc(input.end) };
}

function withNested<T extends { media_file?: MediaFile | null; tags?: string[] }>(
  out: Partial<T>
): Partial<T> {
  if ('media_file' in out) out.media_file = mediaFile(out.media_file);
  if ('tags' in out) out.tags = tags(out.tags);
  return dropUndefined(out);
}

function dropUndefined<T extends object>(input: T): T {
  for (const key of Object.keys(input) as (keyof T)[]) {
    if (input[key] === undefined) delete input[key];
  }
  return input;
}

export function pinpointPayload(input: PinpointRequest): PinpointRequest {
  return withNested(pick(input, PINPOINT_FIELDS));
}

/** Dates leave in the one form the contract shows: ms-precision UTC. Throws on an invalid date. */
export function eventPayload(input: EventRequest): EventRequest {
  const out = pick(input, EVENT_FIELDS);
  if (Array.isArray(out.dates)) out.dates = out.dates.map(dateRange);
  return withNested(out);
}

export function categoryPayload(input: CategoryRequest): CategoryRequest {
  const out = pick(input, CATEGORY_FIELDS);
  if ('image_file' in out) out.image_file = mediaFile(out.image_file);
  return dropUndefined(out);
}

export function listPayload(input: ListRequest): ListRequest {
  return pick(input, LIST_FIELDS);
}

/** Body of the list membership calls: `[{id}]`, nothing else per item. */
export function membershipPayload(ids: readonly number[]): Array<{ id: number }> {
  return ids.map((id) => ({ id: assertId(id, 'pinpoint id') }));
}

export function assertId(id: unknown, what = 'id'): number {
  if (typeof id !== 'number' || !Number.isSafeInteger(id) || id <= 0) {
    throw new TypeError(`Invalid ${what}: ${JSON.stringify(id)} (expected a positive integer)`);
  }
  return id;
}
