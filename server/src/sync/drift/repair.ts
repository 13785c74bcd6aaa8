import type { Core } from '@strapi/strapi';
import { withRetries } from '../../remote/retry';
import type { ResourceKind } from '../../remote/types';
import { failureOf } from '../shared/db-error';
import { keyString, toKey } from '../shared/keys';
import { STATE_UID } from '../shared/tables';
import type { StateRecord } from '../state';
import { deleteRemote } from '../push/remove';
import { PushRefusedError } from '../shared/refusal';
import { pushRefusal } from '../../config/environment';
import { pluginConfig } from '../shared/config';
import { getService } from '../../utils';
import { extend } from '../../utils/objects';
import type {
  DriftEntryRef,
  DriftGroup,
  DriftNotOurs,
  DriftReport,
  RepairOutcome,
} from '../../../../shared/contracts/drift';

export const DRIFT_GROUPS: DriftGroup[] = ['missing', 'changed', 'notOurs', 'membership'];

/**
 * Repairs of a drift report. Entries are queued as normal pushes with their payload hash dropped,
 * so Strapi's version is sent again. Objects no entry owns are deleted one call at a time, each
 * after ownership is read again, and only where this instance pushes.
 */
export function createDriftRepair(strapi: Core.Strapi) {
  const states = getService('state', { strapi });
  /** why this instance may not write to the remote itself (pushIn, syncEnabled), or null */
  const refusal = () => pushRefusal(pluginConfig(strapi));

  /** Entries of the report whose state still names the same remote object. */
  const current = async (refs: DriftEntryRef[]) => {
    const found = await states.getMany(refs);
    return refs.flatMap((r) => {
      const s = found.get(keyString(r));
      return s && s.remoteId === r.remoteId ? [s] : [];
    });
  };

  const requeue = async (
    refs: DriftEntryRef[],
    membersOf?: (s: StateRecord) => number[] | undefined
  ) => {
    const live = await current(refs);
    for (const s of live) {
      const members = membersOf?.(s);
      await states.upsert(toKey(s), {
        resource: s.resource,
        payloadHash: null,
        ...(members ? { members } : {}),
      });
    }
    await getService('outbox', { strapi }).enqueue(
      live.map((s) => extend(toKey(s), { resource: s.resource, reason: 'drift repair' }))
    );
    getService('worker', { strapi }).wake();
    return live.length;
  };

  /** A create in flight or lost: its object may be on the remote without an owner yet. */
  const createsUnresolved = async (resource: ResourceKind) =>
    Boolean(
      await strapi.db.query(STATE_UID).findOne({
        select: ['id'],
        where: { resource, remoteId: null, createStartedAt: { $notNull: true } },
      })
    );

  return async function repair(report: DriftReport, groups: DriftGroup[]): Promise<RepairOutcome> {
    const unknown = groups.filter((g) => !DRIFT_GROUPS.includes(g));
    if (unknown.length) throw new Error(`unknown drift group(s): ${unknown.join(', ')}`);
    // The deletes are the one repair that is not queued: where nothing is pushed (a staging copy
    // of production's database), they would change the account anyway. The whole repair is
    // refused, not done in part, so that its answer is one sentence.
    const refused = groups.includes('notOurs') ? refusal() : null;
    if (refused)
      throw new PushRefusedError(
        'the objects no entry owns are deleted on the remote by the repair itself, not queued.',
        refused
      );
    const outcome: RepairOutcome = {
      at: new Date().toISOString(),
      groups,
      queued: {},
      deleted: 0,
      skipped: [],
      errors: [],
    };
    const skip = ({ resource, remoteId }: DriftNotOurs, reason: string) =>
      outcome.skipped.push({ resource, remoteId, reason });

    // Deletions first: the creates this repair queues would otherwise be in flight, and an
    // unresolved create blocks the deletion of objects it might have made.
    if (groups.includes('notOurs')) {
      const client = await getService('settings', { strapi }).remoteClient();
      const blocked = new Map<ResourceKind, boolean>();
      for (const o of report.notOurs) {
        if (o.resource === 'category') {
          skip(o, 'the API has no delete for categories');
          continue;
        }
        // Ownership read now, not from the report: an entry may have linked or created it since.
        if (await states.isRemoteIdClaimed(o.resource, o.remoteId)) {
          skip(o, 'an entry owns it now');
          continue;
        }
        if (!blocked.has(o.resource)) blocked.set(o.resource, await createsUnresolved(o.resource));
        if (blocked.get(o.resource)) {
          skip(o, `a ${o.resource} create is not resolved yet: it may be this object`);
          continue;
        }
        // The config may change during a long repair: each delete asks again.
        const now = refusal();
        if (now) {
          skip(o, `not deleted: ${now}`);
          continue;
        }
        try {
          await withRetries(() => deleteRemote(client, o.resource, o.remoteId), {
            attempts: 3,
            delayMs: (attempt) => 500 * 2 ** (attempt - 1),
          });
          await getService('inventory', { strapi }).table.remove(o.resource, o.remoteId);
          outcome.deleted += 1;
        } catch (err) {
          outcome.errors.push({
            resource: o.resource,
            remoteId: o.remoteId,
            error: failureOf(err),
          });
        }
      }
      const [first] = outcome.errors;
      if (first)
        strapi.log.warn(
          `[location-content] drift repair: ${outcome.errors.length} object(s) no entry owns could not be deleted (first: ${first.resource} ${first.remoteId}: ${first.error})`
        );
    }
    if (groups.includes('missing')) outcome.queued.missing = await requeue(report.missing);
    if (groups.includes('changed')) outcome.queued.changed = await requeue(report.changed);
    if (groups.includes('membership')) {
      // A pinpoint's record of its lists drives its membership calls: lists that lost it are
      // taken out of the record, so the push adds it back.
      outcome.queued.membership = await requeue(report.membership, (s) => {
        if (s.resource !== 'pinpoint') return undefined;
        const { absent } = report.membership.find((m) => keyString(m) === keyString(s))!;
        return (s.members ?? []).filter((l) => !absent.includes(l));
      });
    }
    return outcome;
  };
}
