/**
 * Strapi entry → Location Content payload, per resource. Pure: no Strapi import, no HTTP; the
 * sync engine hands in the schema lookup, remote-id lookup and media reader.
 */
import { buildCategory } from './category';
import { MappingError } from './errors';
import { buildEvent } from './event';
import { buildList } from './list';
import { buildPinpoint, type Built } from './pinpoint';
import { EntryReader } from './reader';
import type { Entry, MapOutcome, Mapping, MappingContext, RemotePayload } from './types';

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

const BUILDERS: Record<Mapping['resource'], (r: EntryReader) => Promise<Built<RemotePayload>>> = {
  pinpoint: buildPinpoint,
  event: buildEvent,
  category: buildCategory,
  list: buildList,
};

function copy(entry: Entry): Entry {
  try {
    return structuredClone(entry);
  } catch {
    // Entries with functions or class instances cannot be cloned; the transform gets the original.
    return entry;
  }
}

async function applyTransform(mapping: Mapping, entry: Entry): Promise<Entry | null> {
  if (!mapping.transform) return entry;
  // On a copy: a transform that edits in place must not change what the caller holds.
  const input = copy(entry);
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
  if (typeof result !== 'object' || Array.isArray(result)) {
    throw new MappingError(
      'transform',
      `the mapping's transform returned ${Array.isArray(result) ? 'an array' : typeof result}; an entry object or null is expected`
    );
  }
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
  const build = BUILDERS[mapping.resource];
  if (!build)
    throw new MappingError('resource', `unknown resource ${JSON.stringify(mapping.resource)}`);
  const reader = new EntryReader(mapping, current, ctx);
  const built = await build(reader);
  return {
    action: 'upsert',
    resource: mapping.resource,
    payload: built.payload,
    ...(built.members ? { members: built.members } : {}),
    refs: reader.refs,
    unresolved: reader.unresolved,
    ...(reader.deferredMedia.length ? { deferredMedia: reader.deferredMedia } : {}),
  };
}
