import type { Core } from '@strapi/strapi';
import { errors } from '@strapi/utils';
import type { ResourceKind } from '../../remote/types';
import type { StateRecord } from '../state';
import { changedFields } from './fields';
import type { DriftEntryRef, DriftGroup, DriftReport } from '../../../../shared/contracts/drift';
import { extend } from '../../utils/objects';
import { getService } from '../../utils';
import { toKey } from '../shared/keys';

const LIST_LIMIT = 1000;

const refOf = (s: StateRecord): DriftEntryRef =>
  extend(toKey(s), { resource: s.resource, remoteId: s.remoteId! });

/**
 * The drift check: the inventory against the sync states, read only (the walk before it only
 * GETs). An entry pushed after the walk of its resource began is not judged: the walk may have
 * read the object before the push.
 */
export function createDriftCheck(strapi: Core.Strapi) {
  const { walk, table } = getService('inventory', { strapi });
  const states = getService('state', { strapi });

  return async function check(options: { fresh?: boolean } = {}): Promise<DriftReport> {
    if (options.fresh !== false) await walk.walkAll();
    const progress = await walk.progress();
    if (!progress.lastCompleteAt)
      throw new errors.ApplicationError(
        'No complete inventory walk yet: run a check with a fresh walk first.'
      );
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
    const countsOf = ({ contentType, resource }: StateRecord) => {
      const zero = { contentType, resource, missing: 0, changed: 0, membership: 0, newer: 0 };
      return byType.get(contentType) ?? byType.set(contentType, zero).get(contentType)!;
    };
    const keep = <T>(group: DriftGroup, list: T[], item: T) => {
      if (list.length < LIST_LIMIT) list.push(item);
      else if (!report.truncated.includes(group)) report.truncated.push(group);
    };
    const flag = <G extends 'missing' | 'changed' | 'membership'>(
      group: G,
      s: StateRecord,
      item: DriftReport[G][number]
    ) => {
      countsOf(s)[group] += 1;
      keep(group, report[group] as Array<typeof item>, item);
    };

    for (let after = 0; ;) {
      const page = await states.pageByStatus('synced', after);
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
        const ids = judged.filter((s) => s.resource === resource).map((s) => s.remoteId!);
        found.set(resource, await table.fieldsByIds(resource, ids));
      }
      const present: StateRecord[] = [];
      for (const s of judged) {
        const remote = found.get(s.resource)!.get(s.remoteId!);
        if (!remote) {
          flag('missing', s, refOf(s));
          continue;
        }
        present.push(s);
        const fields = s.pushedFields ? changedFields(s.resource, s.pushedFields, remote) : [];
        if (fields.length) flag('changed', s, extend(refOf(s), { fields }));
      }
      // Memberships as last pushed (`members`) against the ones the walk saw.
      const lists = present.filter((s) => s.resource === 'list' && s.members);
      const pinpoints = present.filter((s) => s.resource === 'pinpoint' && s.members?.length);
      const idsOf = (owners: StateRecord[]) => owners.map((s) => s.remoteId!);
      const held = [
        ...(await table.memberships('listId', idsOf(lists))),
        ...(await table.memberships('pinpointId', idsOf(pinpoints))),
      ];
      const pairs = new Set(held.map(([l, p]) => `${l}:${p}`));
      // A pinpoint gone from the remote left its lists with it: that is its own drift (missing).
      const wanted = [...new Set(lists.flatMap((s) => s.members!))];
      const existing = new Set((await table.fieldsByIds('pinpoint', wanted)).keys());
      for (const s of lists) {
        const want = new Set(s.members!);
        const have = held.filter(([l]) => l === s.remoteId).map(([, p]) => p);
        const absent = [...want].filter((p) => existing.has(p) && !pairs.has(`${s.remoteId}:${p}`));
        const extra = [...new Set(have)].filter((p) => !want.has(p));
        if (absent.length || extra.length)
          flag('membership', s, extend(refOf(s), { absent, extra }));
      }
      for (const s of pinpoints) {
        const absent = s.members!.filter((l) => !pairs.has(`${l}:${s.remoteId}`));
        if (absent.length) flag('membership', s, extend(refOf(s), { absent, extra: [] }));
      }
    }

    for (const resource of ['pinpoint', 'event', 'category', 'list'] as ResourceKind[]) {
      for await (const o of table.unowned(resource)) {
        report.notOursByResource[resource] += 1;
        keep('notOurs', report.notOurs, {
          resource,
          remoteId: o.remoteId,
          name: o.name,
          deletable: resource !== 'category',
        });
      }
    }

    report.byContentType = [...byType.values()];
    report.checkedAt = new Date().toISOString();
    return report;
  };
}
