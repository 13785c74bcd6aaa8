import { mapEntry, MappingError, payloadHash, populateFor } from '../mapping';
import type { Mapping } from '../config/types';
import { FILE_UID } from '../mapping/paths';
import { pushedFieldsOf } from '../sync/drift/fields';
import type { InventoryRow } from '../sync/inventory/table';
import { documentsOf, contentTypeUid } from '../sync/shared/strapi';
import { sameKey } from '../sync/shared/keys';
import type { EntryKey } from '../sync/shared/types';
import { getService } from '../utils';
import { failureOf } from '../sync/shared/db-error';
import { newDocumentId, type ImportContext } from './context';
import { invert, put, type Inverted } from './inverse';
import type { ItemStatus } from './items';
import { dropUnkept, importMedia } from './media';
import type { StoredJob } from './job';
import { quietly } from './quiet';

/** Strapi's validation errors name the field in `details`: kept, it is what the report needs. */
const strapiReason = (err: unknown) => {
  const details = (err as { details?: { errors?: Array<{ path?: string[]; message?: string }> } })
    ?.details?.errors;
  return details?.length
    ? details.map((d) => `${(d.path ?? []).join('.')}: ${d.message}`).join('; ')
    : failureOf(err);
};

/**
 * One remote object into one entry, exactly once. The remote id is the key: the documentId is
 * chosen and kept in the import's table, then the sync state links it to the object, then the
 * entry is created with that documentId. A job resumed after a crash at any point finds the
 * entry (or creates it, with the same documentId) and finishes the state; it never makes a
 * second entry, and no push of the entry ever creates a second object.
 */
export function createEntryImporter(ctx: ImportContext) {
  const { strapi, items } = ctx;
  const states = () => getService('state', { strapi });

  const has = async (uid: string, where: Record<string, unknown>) =>
    Boolean(await strapi.db.query(contentTypeUid(uid)).findOne({ select: ['id'], where }));
  const exists = ({ contentType, documentId, locale }: EntryKey) =>
    has(contentType, { documentId, ...ctx.localeOf(contentType, locale) });

  /** Tags as related entries: found by their key, or created (published: nothing maps them). */
  const tagRefs = async (target: string, key: string, tags: string[], locale: string) => {
    const refs: Array<{ documentId: string; locale?: string }> = [];
    for (const tag of tags) {
      const params = { filters: { [key]: tag }, ...ctx.localeOf(target, locale) };
      let found = (await documentsOf(strapi, target).findMany(params))[0];
      found ??= (await quietly(() =>
        strapi.documents(contentTypeUid(target)).create({
          data: { [key]: tag },
          ...ctx.localeOf(target, locale),
          ...(ctx.hasDraftAndPublish(target) ? { status: 'published' } : {}),
        } as never)
      )) as Record<string, unknown>;
      refs.push({ documentId: String(found.documentId), ...ctx.localeOf(target, locale) });
    }
    return refs;
  };

  /**
   * The entry's data: the inverse's, with files downloaded and related entries connected. Each
   * file is kept in `files` (by URL) once stored, through `keep`: a run killed before the entry
   * was made leaves them to the resumed one, which uses them instead of downloading them again.
   * The item is recorded before its first download: each upload relates its file to the item's
   * row, and what a run left there unkept is removed first (see dropUnkept).
   */
  const dataOf = async (
    mapping: Mapping,
    inv: Inverted,
    row: InventoryRow,
    locale: string,
    files: Record<string, number>,
    keep: () => Promise<unknown>
  ) => {
    const data = structuredClone(inv.data);
    const warnings: string[] = [];
    const stored = new Set<string>();
    for (const { url } of inv.media)
      if (files[url] !== undefined && (await has(FILE_UID, { id: files[url] }))) stored.add(url);
    let itemId = 0;
    if (inv.media.some((m) => !stored.has(m.url))) {
      await keep();
      itemId = Number((await items.get(mapping.resource, row.remoteId))?.id);
      await dropUnkept(strapi, itemId, Object.values(files));
    }
    for (const m of inv.media) {
      if (!stored.has(m.url)) {
        try {
          files[m.url] = await importMedia(strapi, m.url, m.field === 'image', itemId);
        } catch (err) {
          warnings.push(`${m.field}: ${failureOf(err)}`);
          continue;
        }
        stored.add(m.url);
        // Out of the try: a failed write is the database's failure, not the media's.
        await keep();
      }
      put(data, m.at, files[m.url]);
    }
    for (const t of inv.tagEntries) {
      if (!t.tags.length) continue;
      const value =
        t.at.last.kind === 'component'
          ? t.tags.map((tag) => ({ [t.key]: tag }))
          : { connect: await tagRefs(t.target, t.key, t.tags, locale) };
      put(data, t.at, value);
    }
    for (const r of inv.relations) if (r.refs.length) put(data, r.at, { connect: r.refs });
    try {
      return { data: mapping.inverse ? await mapping.inverse(data, row.fields) : data, warnings };
    } catch (err) {
      throw new Error(`the mapping's inverse failed: ${failureOf(err)}`);
    }
  };

  /** The draft (or the only version) as the push will read it once published: its payload's hash. */
  const finish = async (
    mapping: Mapping,
    key: EntryKey,
    row: InventoryRow,
    job: StoredJob,
    warnings: string[]
  ) => {
    const uid = mapping.contentType;
    const dp = ctx.hasDraftAndPublish(uid);
    const entry = await documentsOf(strapi, uid).findOne({
      documentId: key.documentId,
      populate: populateFor(mapping, ctx.getModel),
      ...ctx.localeOf(uid, key.locale),
      ...(dp ? { status: 'draft' } : {}),
    });
    if (!entry) throw new Error('the entry it was imported into is gone');
    let hash: string | null = null;
    let refs: Array<EntryKey & { role?: string }> | undefined;
    try {
      const outcome = await mapEntry(
        mapping,
        entry,
        getService('push', { strapi }).mappingContext()
      );
      if (outcome.action === 'upsert') {
        refs = outcome.refs.map((r) => ({ ...r, locale: r.locale ?? '' }));
        // An entry still waiting for another one would be pushed when it arrives.
        if (!outcome.unresolved.some((u) => u.blocking)) hash = payloadHash(outcome);
      }
    } catch (err) {
      if (!(err instanceof MappingError)) throw err;
      warnings.push(
        `as imported it cannot be pushed (${err.message}); its first publish sends what an editor fixes`
      );
    }
    const remote = row.fields;
    const resource = mapping.resource;
    const mediaUrl = resource === 'category' ? remote.image_url : remote.media_url;
    await states().upsertNow(key, {
      resource,
      remoteId: row.remoteId,
      payloadHash: hash,
      // A draft is linked, not online: nothing removes its object while it stays a draft.
      status: dp ? 'imported' : 'synced',
      attempts: 0,
      lastError: null,
      lastErrorAt: null,
      lastSyncedAt: new Date(),
      mediaUrl: typeof mediaUrl === 'string' ? mediaUrl : null,
      // What the remote holds: a push of the list changes only the difference with its relation.
      members:
        resource === 'list'
          ? await getService('inventory', { strapi }).table.membersOf(row.remoteId)
          : null,
      pushedFields: pushedFieldsOf(resource, remote),
      ...(refs ? { refs } : {}),
    });
    if (dp && job.publish) {
      await quietly(() =>
        strapi.documents(contentTypeUid(uid)).publish({
          documentId: key.documentId,
          ...ctx.localeOf(uid, key.locale),
        } as never)
      );
      // Online as the remote has it: nothing to push (a hash that could not be made is pushed).
      await states().upsertNow(key, { resource, status: hash ? 'synced' : 'pending' });
    }
  };

  /**
   * Imports `row` (an object of `resource` that no entry owned when the job listed it). Never
   * throws for the object's own problems: its item says what happened.
   */
  const importOne = async (mapping: Mapping, row: InventoryRow, job: StoredJob) => {
    const resource = mapping.resource;
    const item = await items.get(resource, row.remoteId);
    if (item?.status === 'done' || (item?.status === 'failed' && item.jobId === job.id)) return;
    const owner = await states().ownerOf(resource, row.remoteId);
    const planned =
      item?.status === 'planned' && item.entryDocumentId && item.contentType === mapping.contentType
        ? {
            contentType: mapping.contentType,
            documentId: item.entryDocumentId,
            locale: item.entryLocale ?? '',
          }
        : null;
    // Linked or pushed by an editor since the job listed it: not the import's any more.
    if (owner && !(planned && sameKey(owner, planned))) return;

    const key: EntryKey = planned ?? {
      contentType: mapping.contentType,
      documentId: newDocumentId(),
      locale: ctx.isLocalized(mapping.contentType) ? job.locale : '',
    };
    const files = (planned && item?.files) || {};
    const record = (status: ItemStatus, reason: string | null, entry?: EntryKey) =>
      items.put({
        resource,
        remoteId: row.remoteId,
        contentType: mapping.contentType,
        entryDocumentId: entry?.documentId ?? null,
        entryLocale: entry?.locale ?? null,
        status,
        reason,
        name: row.name,
        jobId: job.id,
        files,
      });
    const fail = async (reason: string, status: ItemStatus = 'failed') => {
      await record(status, reason);
      return null;
    };
    /** Creates the entry: the notes of what it leaves out, or null when the object failed. */
    const create = async (): Promise<string[] | null> => {
      const fields = ctx.planOf(mapping);
      if (fields.blocked) return fail(fields.blocked, 'skipped');
      const inv = await invert(fields, row.remoteId, row.fields, ctx.lookups(null));
      if (inv.problems.length) return fail(inv.problems.join('; '));
      const { data, warnings } = await dataOf(mapping, inv, row, job.locale, files, () =>
        record('planned', null, key)
      );
      if (!data) return fail("the mapping's inverse left it out (returned null)", 'skipped');
      const notes = [...inv.warnings, ...warnings];
      // The documentId is kept first, then the state links it to the object: from here on a
      // resumed job reuses both, and no other import or link can take the object.
      await record('planned', notes.join('; ') || null, key);
      if (!owner)
        await states().upsertNow(key, {
          resource,
          remoteId: row.remoteId,
          status: 'imported',
          payloadHash: null,
        });
      try {
        await quietly(() =>
          strapi.documents(contentTypeUid(mapping.contentType)).create({
            data: Object.assign({}, data, { documentId: key.documentId }),
            ...ctx.localeOf(mapping.contentType, key.locale),
          } as never)
        );
      } catch (err) {
        // Refused by Strapi (a required field the remote did not give, a unique value taken):
        // the object is not the import's after all.
        await states().remove(key);
        return fail(`Strapi refused the entry: ${strapiReason(err)}`);
      }
      return notes;
    };
    try {
      // Resumed after the entry was made: only its state is left to finish.
      const notes =
        planned && (await exists(key)) ? (item?.reason ? [item.reason] : []) : await create();
      if (!notes) return;
      // finish adds to the notes when the entry as imported cannot be pushed.
      await finish(mapping, key, row, job, notes);
      await record('done', notes.join('; ') || null, key);
    } catch (err) {
      strapi.log.warn(
        `[location-content] import of ${resource} ${row.remoteId}: ${failureOf(err)}`
      );
      // A state that links no entry would keep the object from the next import.
      if (!(await exists(key).catch(() => true))) {
        const state = await states().ownerOf(resource, row.remoteId);
        if (state?.documentId === key.documentId && state.status === 'imported')
          await states().remove(key);
      }
      await fail(failureOf(err));
    }
  };

  return { importOne };
}
