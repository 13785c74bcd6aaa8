import type { Core } from '@strapi/strapi';
import type { ResourceKind } from '../../remote/types';
import type { StateRecord } from '../state';
import { INVENTORY_MEMBER_UID, INVENTORY_UID, STATE_UID, tableInfo } from '../shared/tables';
import { changedFields } from './fields';
import type {
  DriftChanged,
  DriftEntryRef,
  DriftGroup,
  DriftMembership,
  DriftNotOurs,
  DriftReport,
} from './report';
import { extend } from '../../utils/objects';
import { getService } from '../../utils';

const PAGE = 500;
const LIST_LIMIT = 1000;
const jsonIn = (v: unknown) => (typeof v === 'string' ? JSON.parse(v) : v);

export class NoInventoryError extends Error {
  constructor() {
    super('No complete inventory walk yet: run a check with a fresh walk first.');
    this.name = 'NoInventoryError';
  }
}

/** Reads of the inventory and sync state tables, a page of ids at a time. */
export function createDriftReads(strapi: Core.Strapi) {
  const knex = () => strapi.db.connection;

  /** Documented fields of the inventory objects of `resource` among `ids`, by id. */
  const objectsByIds = async (resource: ResourceKind, ids: number[]) => {
    const { table, col } = tableInfo(strapi, INVENTORY_UID);
    const out = new Map<number, Record<string, unknown>>();
    if (!ids.length) return out;
    const rows = await knex()(table)
      .where(col('resource'), resource)
      .whereIn(col('remoteId'), ids)
      .select(col('remoteId'), col('fields'));
    for (const r of rows) out.set(Number(r[col('remoteId')]), jsonIn(r[col('fields')]) ?? {});
    return out;
  };

  /** Remote ids of `resource` among `ids` that an entry's state holds, whatever its status. */
  const ownedIds = async (resource: ResourceKind, ids: number[]) => {
    const { table, col } = tableInfo(strapi, STATE_UID);
    if (!ids.length) return new Set<number>();
    const rows = await knex()(table)
      .where(col('resource'), resource)
      .whereIn(col('remoteId'), ids)
      .select(col('remoteId'));
    return new Set<number>(rows.map((r: Record<string, unknown>) => Number(r[col('remoteId')])));
  };

  /** Inventory memberships touching the given lists or pinpoints, as `list:pinpoint` strings. */
  const memberships = async (by: 'listId' | 'pinpointId', ids: number[]) => {
    const { table, col } = tableInfo(strapi, INVENTORY_MEMBER_UID);
    if (!ids.length) return [] as Array<[number, number]>;
    const rows = await knex()(table).whereIn(col(by), ids).select(col('listId'), col('pinpointId'));
    return rows.map((r: Record<string, unknown>): [number, number] => [
      Number(r[col('listId')]),
      Number(r[col('pinpointId')]),
    ]);
  };

  /** Inventory objects of `resource` by ascending remote id. */
  const objectsAfter = async (resource: ResourceKind, afterId: number, limit: number) => {
    const { table, col } = tableInfo(strapi, INVENTORY_UID);
    const rows = await knex()(table)
      .where(col('resource'), resource)
      .andWhere(col('remoteId'), '>', afterId)
      .orderBy(col('remoteId'), 'asc')
      .limit(limit)
      .select(col('remoteId'), col('name'));
    return rows.map((r: Record<string, unknown>) => ({
      remoteId: Number(r[col('remoteId')]),
      name: (r[col('name')] ?? null) as string | null,
    }));
  };

  return { objectsByIds, ownedIds, memberships, objectsAfter };
}

const refOf = (s: StateRecord): DriftEntryRef => ({
  contentType: s.contentType,
  documentId: s.documentId,
  locale: s.locale,
  resource: s.resource,
  remoteId: s.remoteId!,
});

/**
 * The drift check: the inventory against the sync states, read only (the walk before it only
 * GETs). An entry pushed after the walk of its resource began is not judged: the walk may have
 * read the object before the push.
 */
export function createDriftCheck(strapi: Core.Strapi) {
  const { walk } = getService('inventory', { strapi });
  const states = getService('state', { strapi });
  const reads = createDriftReads(strapi);

  return async function check(options: { fresh?: boolean } = {}): Promise<DriftReport> {
    if (options.fresh !== false) await walk.walkAll();
    const progress = await walk.progress();
    if (!progress.lastCompleteAt) throw new NoInventoryError();
    const walkStart = new Map<ResourceKind, number>(
      progress.phases.map((p) => [p.resource, p.startedAt ? Date.parse(p.startedAt) : 0])
    );

    const report: DriftReport = {
      checkedAt: '',
      inventoryAt: progress.lastCompleteAt,
      byContentType: [],
      notOursByResource: { pinpoint: 0, event: 0, category: 0, list: 0 },
      missing: [],
      changed: [],
      notOurs: [],
      membership: [],
      truncated: [],
      listLimit: LIST_LIMIT,
    };
    const byType = new Map<string, DriftReport['byContentType'][number]>();
    const countsOf = (s: StateRecord) => {
      let c = byType.get(s.contentType);
      if (!c)
        byType.set(
          s.contentType,
          (c = {
            contentType: s.contentType,
            resource: s.resource,
            missing: 0,
            changed: 0,
            membership: 0,
            newer: 0,
          })
        );
      return c;
    };
    const keep = <T>(group: DriftGroup, list: T[], item: T) => {
      if (list.length < LIST_LIMIT) list.push(item);
      else if (!report.truncated.includes(group)) report.truncated.push(group);
    };

    for (let after = 0; ;) {
      const page = await states.pageByStatus('synced', after, PAGE);
      if (!page.length) break;
      after = page[page.length - 1].id!;
      const judged = page.filter((s) => {
        if (s.remoteId == null) return false;
        if ((s.lastSyncedAt?.getTime() ?? 0) >= (walkStart.get(s.resource) ?? Infinity)) {
          countsOf(s).newer += 1;
          return false;
        }
        return true;
      });
      const found = new Map<ResourceKind, Map<number, Record<string, unknown>>>();
      for (const resource of new Set(judged.map((s) => s.resource))) {
        found.set(
          resource,
          await reads.objectsByIds(
            resource,
            judged.filter((s) => s.resource === resource).map((s) => s.remoteId!)
          )
        );
      }
      const present: StateRecord[] = [];
      for (const s of judged) {
        const remote = found.get(s.resource)!.get(s.remoteId!);
        if (!remote) {
          countsOf(s).missing += 1;
          keep('missing', report.missing, refOf(s));
          continue;
        }
        present.push(s);
        const fields = s.pushedFields ? changedFields(s.resource, s.pushedFields, remote) : [];
        if (fields.length) {
          countsOf(s).changed += 1;
          keep<DriftChanged>('changed', report.changed, extend(refOf(s), { fields }));
        }
      }
      // Memberships as last pushed (`members`) against the ones the walk saw.
      const lists = present.filter((s) => s.resource === 'list' && s.members);
      const pinpoints = present.filter((s) => s.resource === 'pinpoint' && s.members?.length);
      const held = [
        ...(await reads.memberships(
          'listId',
          lists.map((s) => s.remoteId!)
        )),
        ...(await reads.memberships(
          'pinpointId',
          pinpoints.map((s) => s.remoteId!)
        )),
      ];
      const pairs = new Set(held.map(([l, p]) => `${l}:${p}`));
      // A pinpoint gone from the remote left its lists with it: that is its own drift (missing).
      const wanted = [...new Set(lists.flatMap((s) => s.members!))];
      const existing = new Set((await reads.objectsByIds('pinpoint', wanted)).keys());
      for (const s of lists) {
        const want = new Set(s.members!);
        const have = held.filter(([l]) => l === s.remoteId).map(([, p]) => p);
        const absent = [...want].filter((p) => existing.has(p) && !pairs.has(`${s.remoteId}:${p}`));
        const extra = [...new Set(have)].filter((p) => !want.has(p));
        if (absent.length || extra.length) {
          countsOf(s).membership += 1;
          keep<DriftMembership>(
            'membership',
            report.membership,
            extend(refOf(s), { absent, extra })
          );
        }
      }
      for (const s of pinpoints) {
        const absent = s.members!.filter((l) => !pairs.has(`${l}:${s.remoteId}`));
        if (absent.length) {
          countsOf(s).membership += 1;
          keep<DriftMembership>(
            'membership',
            report.membership,
            extend(refOf(s), { absent, extra: [] })
          );
        }
      }
    }

    for (const resource of ['pinpoint', 'event', 'category', 'list'] as ResourceKind[]) {
      for (let after = 0; ;) {
        const page = await reads.objectsAfter(resource, after, PAGE);
        if (!page.length) break;
        after = page[page.length - 1].remoteId;
        const owned = await reads.ownedIds(
          resource,
          page.map((o) => o.remoteId)
        );
        for (const o of page) {
          if (owned.has(o.remoteId)) continue;
          report.notOursByResource[resource] += 1;
          keep<DriftNotOurs>('notOurs', report.notOurs, {
            resource,
            remoteId: o.remoteId,
            name: o.name,
            deletable: resource !== 'category',
          });
        }
      }
    }

    report.byContentType = [...byType.values()];
    report.checkedAt = new Date().toISOString();
    return report;
  };
}
