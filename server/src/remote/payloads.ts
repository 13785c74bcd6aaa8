import { toMsUtc } from './dates';
import type {
  CategoryRequest,
  EventRequest,
  ListRequest,
  MediaFile,
  PinpointRequest,
} from './types';

// The contract forbids sending what it does not list: every body is rebuilt from a whitelist, so an
// extra key (a Strapi field, an id, a typo) never leaves. Each list is typed by its request (the
// build fails when the type gains a field the list misses); its key order is the body's.
const fields = <T>(all: { [K in keyof T]-?: true }) => Object.keys(all) as (keyof T)[];

const PINPOINT_FIELDS = fields<PinpointRequest>({
  name: true,
  description: true,
  address: true,
  latitude: true,
  longitude: true,
  altitude: true,
  category: true,
  tags: true,
  media_credits: true,
  media_file: true,
});
const EVENT_FIELDS = fields<EventRequest>({
  name: true,
  description: true,
  dates: true,
  pinpoint: true,
  tags: true,
  media_credits: true,
  media_file: true,
});
const CATEGORY_FIELDS = fields<CategoryRequest>({ name: true, image_file: true });
const LIST_FIELDS = fields<ListRequest>({ name: true, description: true });
const MEDIA_FIELDS = fields<MediaFile>({ content: true, name: true, type: true });

/** The input's own defined values of `keys`. */
function pick<T extends object>(input: T, keys: readonly (keyof T)[]): Partial<T> {
  const out: Partial<T> = {};
  for (const key of keys) {
    if (Object.hasOwn(input, key) && input[key] !== undefined) out[key] = input[key];
  }
  return out;
}

type Nested = { media_file?: MediaFile | null; image_file?: MediaFile | null; tags?: string[] };

/** A null media is kept: it removes the media an object has (a PUT that merges keeps an omitted one). */
function withNested<T extends Nested>(out: Partial<T>): Partial<T> {
  for (const key of ['media_file', 'image_file'] as const) {
    if (out[key]) out[key] = pick(out[key], MEDIA_FIELDS) as MediaFile;
  }
  if (out.tags === null) delete out.tags;
  else if (Array.isArray(out.tags)) out.tags = out.tags.map(String);
  return out;
}

export const pinpointPayload = (input: PinpointRequest): PinpointRequest =>
  withNested(pick(input, PINPOINT_FIELDS));

/** Dates leave in the one form the contract shows: ms-precision UTC. Throws on an invalid date. */
export function eventPayload(input: EventRequest): EventRequest {
  const out = pick(input, EVENT_FIELDS);
  if (Array.isArray(out.dates))
    out.dates = out.dates.map((d) => ({ start: toMsUtc(d.start), end: toMsUtc(d.end) }));
  return withNested(out);
}

export const categoryPayload = (input: CategoryRequest): CategoryRequest =>
  withNested(pick(input, CATEGORY_FIELDS));

export const listPayload = (input: ListRequest): ListRequest => pick(input, LIST_FIELDS);

/** Body of the list membership calls: `[{id}]`, nothing else per item. */
export const membershipPayload = (ids: readonly number[]): Array<{ id: number }> =>
  ids.map((id) => ({ id: assertId(id, 'pinpoint id') }));

export function assertId(id: unknown, what = 'id'): number {
  if (typeof id !== 'number' || !Number.isSafeInteger(id) || id <= 0) {
    throw new TypeError(`Invalid ${what}: ${JSON.stringify(id)} (expected a positive integer)`);
  }
  return id;
}
