/**
 * Dependants: which entries must be pushed again when an entry they point at changes or gets its
 * remote id (an event follows its pinpoint, a pinpoint its category, a list its members). Two
 * sources, because each misses cases the other sees: the sync state (entries whose last payload
 * used the entry: finds links Strapi has since dropped, an unpublished pinpoint's events) and the
 * database (entries whose published version relates to it now: links made while it was not online
 * yet, and readers of fields other than the remote id, tags from related names).
 */
import type { Core } from '@strapi/strapi';
import type { Mapping } from '../../config/types';
import { relationTargets } from '../../mapping';
import { reasonOf } from '../shared/db-error';
import { FIELD_SPECS } from '../../mapping/types';
import { BUSY_WRITES, createBatcher, groupBy } from '../shared/batcher';
import { onlineKeyPages } from '../shared/entries';
import { keyString, sameKey, toKey } from '../shared/keys';
import type { EnqueueItem } from '../outbox';
import { modelOf } from '../shared/strapi';
import type { EntryKey } from '../shared/types';
import { extend } from '../../utils/objects';
import { getService } from '../../utils';

/**
 * A mapping that reads `target` through the relation `path` ('place', 'tours'); `identityOnly`: it
 * only needs the related entry's remote id there (category, pinpoint, lists, members).
 */
type Reader = ReturnType<typeof relationTargets>[number] & {
  mapping: Mapping;
  identityOnly: boolean;
};

export function createRelated(strapi: Core.Strapi) {
  let cache: { mappings: Mapping[]; readers: Map<string, Reader[]> } | undefined;

  const readersByTarget = () => {
    const mappings = getService('mappings', { strapi }).active();
    if (
      cache &&
      cache.mappings.length === mappings.length &&
      cache.mappings.every((m, i) => m === mappings[i])
    )
      return cache.readers;
    const readers = new Map<string, Reader[]>();
    for (const mapping of mappings) {
      const byPath = new Map<string, Reader>();
      const fields = (mapping.fields ?? {}) as unknown as Record<string, unknown>;
      for (const t of relationTargets(mapping, (uid) => modelOf(strapi, uid))) {
        const source = fields[t.field];
        const fieldPath =
          typeof source === 'string' ? source : (source as { path?: string } | undefined)?.path;
        const identity =
          FIELD_SPECS[mapping.resource][t.field]?.kind === 'relation' && fieldPath === t.path;
        const known = byPath.get(`${t.target}|${t.path}`);
        // A path used both ways (identity and a value read through it) counts as a read.
        if (known) known.identityOnly = known.identityOnly && identity;
        else byPath.set(`${t.target}|${t.path}`, { mapping, ...t, identityOnly: identity });
      }
      for (const r of byPath.values()) readers.set(r.target, [...(readers.get(r.target) ?? []), r]);
    }
    cache = { mappings, readers };
    return readers;
  };

  const whereOn = (path: string, documentIds: string[]): Record<string, unknown> =>
    path
      .split('.')
      .reverse()
      .reduce<Record<string, unknown>>((inner, name) => ({ [name]: inner }), {
        documentId: { $in: documentIds },
      });

  /** Entries whose published version relates now to one of `documentIds` (all of `contentType`). */
  async function* relatedNow(
    contentType: string,
    documentIds: string[],
    identity: boolean,
    reason: string
  ): AsyncGenerator<EnqueueItem[]> {
    for (const { mapping, path, identityOnly } of readersByTarget().get(contentType) ?? []) {
      if (identityOnly && !identity) continue;
      try {
        for await (const page of onlineKeyPages(
          strapi,
          mapping.contentType,
          whereOn(path, documentIds)
        )) {
          yield page.keys.map((k) => extend(k, { resource: mapping.resource, reason }));
        }
      } catch (err) {
        strapi.log.warn(
          `[location-content] could not find the ${mapping.contentType} entries related to ${contentType} ${documentIds.slice(0, 3).join(', ')}${documentIds.length > 3 ? '…' : ''} through '${path}': ${reasonOf(err)}`
        );
      }
    }
  }

  type Request = { key: EntryKey; reason: string; identity: boolean };
  /** The requeues asked at the same moment (a page of pushes finishing) share their queries. */
  const requeues = createBatcher(async (requests: Request[]) => {
    const outbox = getService('outbox', { strapi });
    const states = getService('state', { strapi });
    const groups = groupBy(requests, (r) => `${r.key.contentType}|${r.identity}|${r.reason}`);
    for (const group of groups.values()) {
      const { reason, identity } = group[0];
      const keys = group.map((r) => r.key);
      const dependants = await Promise.all(keys.map((k) => states.dependantsOf(k)));
      const items = new Map<string, EnqueueItem>();
      keys.forEach((k, i) => {
        for (const d of dependants[i]) {
          const reads = d.refs?.some((r) => r.role === 'read' && sameKey(toKey(r), k));
          if (identity || reads)
            items.set(keyString(d), extend(toKey(d), { resource: d.resource, reason }));
        }
      });
      await outbox.enqueue([...items.values()]);
      // At most the batcher's 200 requests: one IN list.
      const documentIds = [...new Set(keys.map((k) => k.documentId))];
      const related = relatedNow(group[0].key.contentType, documentIds, identity, reason);
      for await (const page of related) await outbox.enqueue(page);
    }
    return requests.map(() => undefined);
  }, BUSY_WRITES);

  return {
    /** True when a mapped content type reads entries of `uid` through a relation. */
    isRead: (uid: string) => readersByTarget().has(uid),
    /**
     * Queues every entry that uses `key`, now or in its last push. `identity`: the entry's remote
     * object appeared, changed id or went away, and everything that uses it follows; otherwise only
     * its content changed, which matters only to entries that read a value through it (tags from
     * its name...), not to those that only point at it.
     */
    requeue: (key: EntryKey, reason: string, identity: boolean) =>
      requeues.load({ key, reason, identity }),
  };
}
