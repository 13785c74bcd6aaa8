/**
 * Strapi entry → Location Content payload, per resource. Pure: no Strapi import, no HTTP; the
 * sync engine hands in the schema lookup, remote-id lookup and media reader.
 */
import { collectProblems, MappingError } from './errors';
import { EntryReader } from './reader';
import { categoryPayload, eventPayload, listPayload, pinpointPayload } from '../remote/payloads';
import { FIELD_SPECS, type Entry, type Expect, type MapOutcome, type Mapping } from './types';
import type { MappingContext, RemotePayload, ResourceKind } from './types';

export type { MapOutcome, MappingContext, StrapiSchemaLookup, UpsertOutcome } from './types';
export { MappingError } from './errors';
export { populateFor, relationTargets } from './populate';
export { payloadHash } from './hash';
export { validateMappingFields } from './validate';
export { loadMedia } from './media';

const PAYLOADS: Record<ResourceKind, (built: never) => RemotePayload> = {
  pinpoint: pinpointPayload,
  event: eventPayload,
  category: categoryPayload,
  list: listPayload,
};

type Built = { payload: Record<string, unknown>; members?: number[] };

/** One remote field of the entry into the payload; a pinpoint's position is read at `latitude`. */
async function readField(r: EntryReader, field: string, expect: Expect, out: Built) {
  const { payload } = out;
  switch (expect.kind) {
    case 'text':
    case 'html':
    case 'dates':
    case 'tags':
      payload[field] = field === 'name' ? r.requiredText(field) : await r[expect.kind](field);
      break;
    case 'media': {
      const key = field === 'image' ? 'image_file' : 'media_file';
      payload[key] = await r.media(field, key);
      break;
    }
    case 'number': {
      if (field === 'latitude') Object.assign(payload, await r.position());
      // An explicit altitude field wins over one carried by the coordinates.
      const altitude = field === 'altitude' ? r.number(field) : undefined;
      if (altitude !== undefined) payload.altitude = altitude;
      break;
    }
    case 'relation': {
      // A list's pinpoints, a pinpoint's lists: members not synced yet do not hold the push back.
      if (!expect.single && !r.has(field)) break;
      const role = field === 'pinpoints' ? 'member' : expect.resource;
      const { ids, count } = await r.related(field, role, expect.single);
      if (field === 'pinpoint' && count === 0)
        throw new MappingError(
          field,
          'no related entry; the remote needs the pinpoint where the event takes place'
        );
      if (!expect.single) out.members = ids.sort((a, b) => a - b);
      // The contract types the relation as an integer, so none sends no key.
      else if (ids.length > 0) payload[field] = ids[0];
    }
  }
}

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

/** What the remote must hold for a populated entry (`populateFor`); a MappingError lists every problem. */
export async function mapEntry(
  mapping: Mapping,
  entry: Entry,
  ctx: MappingContext
): Promise<MapOutcome> {
  const current = await applyTransform(mapping, entry);
  if (current === null) return { action: 'skip', reason: "the mapping's transform returned null" };
  const reader = new EntryReader(mapping, current, ctx);
  const built: Built = { payload: {} };
  await collectProblems(Object.entries(FIELD_SPECS[mapping.resource]), ([field, expect]) =>
    readField(reader, field, expect, built)
  );
  return {
    action: 'upsert',
    resource: mapping.resource,
    payload: PAYLOADS[mapping.resource](built.payload as never),
    ...(built.members ? { members: built.members } : {}),
    refs: reader.refs,
    unresolved: reader.unresolved,
    ...(reader.deferredMedia.length ? { deferredMedia: reader.deferredMedia } : {}),
  };
}
