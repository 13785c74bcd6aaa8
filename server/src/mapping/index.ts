/**
 * Strapi entry → Location Content payload, per resource. Pure: no Strapi import, no HTTP; the
 * sync engine hands in the schema lookup, remote-id lookup and media reader.
 */
import { collectProblems, MappingError } from './errors';
import { EntryReader } from './reader';
import { categoryPayload, eventPayload, listPayload, pinpointPayload } from '../remote/payloads';
import type { Entry, MapOutcome, Mapping, MappingContext, RefRole, RemotePayload } from './types';

export type {
  EntryRef,
  MapOutcome,
  MappingContext,
  MediaFileObject,
  SchemaModel,
  StrapiSchemaLookup,
  UpsertOutcome,
} from './types';
export { MappingError } from './errors';
export { populateFor, relationTargets } from './populate';
export { payloadHash, canonicalJson } from './hash';
export { validateMappingFields, validateMappings } from './validate';
export { toHtml, sanitize, markdownToHtml, textToHtml } from './html';
export { renderBlocks } from './blocks';
export { parseCoordinates } from './coordinates';
export { mapDates, toMsUtc } from './dates';
export { mapTags } from './tags';
export { formatBytes, loadMedia } from './media';
export { resolvePath, readPath, PathError } from './paths';

type Built = { payload: Record<string, unknown>; members?: number[] };
type Step = (r: EntryReader, out: Built) => unknown;

const set =
  (key: string, read: (r: EntryReader) => unknown): Step =>
  async (r, out) => {
    out.payload[key] = await read(r);
  };
const name = set('name', (r) => r.requiredText('name'));
const description = set('description', (r) => r.html('description'));
const text = (key: string) => set(key, (r) => r.text(key));
const tags = set('tags', (r) => r.tags('tags'));
const media = set('media_file', (r) => r.media('media'));

/** The one related entry of `field`; the contract types it as an integer, so none sends no key. */
const relation =
  (field: 'category' | 'pinpoint', required: boolean): Step =>
  async (r, out) => {
    const { ids, count } = await r.related(field, field, { blocking: true, single: true });
    if (required && count === 0)
      throw new MappingError(
        field,
        'no related entry; the remote needs the pinpoint where the event takes place'
      );
    if (ids.length > 0) out.payload[field] = ids[0];
  };

/** A list's pinpoints, a pinpoint's lists: members not synced yet do not hold the push back. */
const members =
  (field: string, role: RefRole): Step =>
  async (r, out) => {
    if (!r.has(field)) return;
    const { ids } = await r.related(field, role, { blocking: false, single: false });
    out.members = ids.sort((a, b) => a - b);
  };

/** Each resource's fields in the order their problems are reported, and its payload builder. */
const RESOURCES: Record<
  Mapping['resource'],
  { steps: Step[]; payload: (p: never) => RemotePayload }
> = {
  pinpoint: {
    payload: pinpointPayload,
    steps: [
      name,
      description,
      text('address'),
      async (r, out) => {
        const { latitude, longitude, altitude } = await r.position();
        Object.assign(out.payload, { latitude, longitude });
        if (altitude !== undefined) out.payload.altitude = altitude;
      },
      // An explicit altitude field wins over one carried by the coordinates.
      (r, out) => {
        const a = r.number('altitude');
        if (a !== undefined) out.payload.altitude = a;
      },
      tags,
      media,
      text('media_credits'),
      relation('category', false),
      members('lists', 'list'),
    ],
  },
  event: {
    payload: eventPayload,
    steps: [
      name,
      description,
      set('dates', (r) => r.dates('dates')),
      relation('pinpoint', true),
      tags,
      media,
      text('media_credits'),
    ],
  },
  category: {
    payload: categoryPayload,
    steps: [name, set('image_file', (r) => r.media('image', 'image_file'))],
  },
  list: { payload: listPayload, steps: [name, description, members('pinpoints', 'member')] },
};

async function applyTransform(mapping: Mapping, entry: Entry): Promise<Entry | null> {
  if (!mapping.transform) return entry;
  // On a copy: a transform that edits in place must not change what the caller holds (entries
  // with functions or class instances cannot be cloned: the transform gets the original).
  let input = entry;
  try {
    input = structuredClone(entry);
  } catch {
    /* kept as it is */
  }
  let result: Entry | null | undefined;
  try {
    result = await mapping.transform(input);
  } catch (err) {
    throw new MappingError(
      'transform',
      `the mapping's transform failed: ${err instanceof Error ? err.message : String(err)}`
    );
  }
  if (result === null) return null;
  // `undefined` is a transform that edited its argument and forgot to return it.
  if (result === undefined) return input;
  if (typeof result !== 'object' || Array.isArray(result))
    throw new MappingError(
      'transform',
      `the mapping's transform returned ${Array.isArray(result) ? 'an array' : typeof result}; an entry object or null is expected`
    );
  return result;
}

/**
 * Maps one populated entry (see `populateFor`) to what the remote must hold for it. Throws a
 * MappingError listing every problem the editor has to fix; other errors (readMedia, remoteIdOf)
 * propagate untouched.
 */
export async function mapEntry(
  mapping: Mapping,
  entry: Entry,
  ctx: MappingContext
): Promise<MapOutcome> {
  const current = await applyTransform(mapping, entry);
  if (current === null) return { action: 'skip', reason: "the mapping's transform returned null" };
  const resource = RESOURCES[mapping.resource];
  if (!resource)
    throw new MappingError('resource', `unknown resource ${JSON.stringify(mapping.resource)}`);
  const reader = new EntryReader(mapping, current, ctx);
  const built: Built = { payload: {} };
  await collectProblems(resource.steps.map((step) => () => step(reader, built)));
  return {
    action: 'upsert',
    resource: mapping.resource,
    payload: resource.payload(built.payload as never),
    ...(built.members ? { members: built.members } : {}),
    refs: reader.refs,
    unresolved: reader.unresolved,
    ...(reader.deferredMedia.length ? { deferredMedia: reader.deferredMedia } : {}),
  };
}
