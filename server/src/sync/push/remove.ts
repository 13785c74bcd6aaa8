import type { Mapping } from '../../config/types';
import type { RemoteClient } from '../../remote';
import type { ResourceKind } from '../../remote/types';
import type { StateRecord } from '../state';
import type { EntryKey } from '../shared/types';
import type { Core } from '@strapi/strapi';
import { getService } from '../../utils';
import { api, NO_OBJECT, isGone, remoteClient, requeueDependants } from './context';
import type { PushResult } from './context';
import type { Creator } from './create';
import { extend } from '../../utils/objects';
import { contentTypeUid } from '../shared/strapi';
import { toKey } from '../shared/keys';

/** Deletes a remote object; one that is not there (any more) is as good as deleted. */
export const deleteRemote = async (client: RemoteClient, resource: ResourceKind, id: number) => {
  try {
    await api(client, resource).delete(id);
  } catch (err) {
    if (!isGone(err)) throw err;
  }
};

export function createRemover(
  strapi: Core.Strapi,
  { claimLostCreate }: Pick<Creator, 'claimLostCreate'>
) {
  const states = () => getService('state', { strapi });

  // Once the object of `key` is gone, a pinpoint takes its events with it (the remote deletes them,
  // or we do) and leaves its lists; a list leaves the pinpoints that named it.
  const forgetLinksTo = async (
    client: RemoteClient,
    key: EntryKey,
    resource: ResourceKind,
    remoteId: number
  ) => {
    for (const d of await states().dependantsOf(key)) {
      const dKey = toKey(d);
      if (resource === 'pinpoint' && d.resource === 'event' && d.remoteId != null) {
        // Whether or not the remote cascades, no event stays online at a pinpoint that is gone.
        await deleteRemote(client, 'event', d.remoteId);
        await states().upsert(dKey, {
          resource: 'event',
          ...NO_OBJECT,
          status: 'pending',
          lastError: `Its pinpoint was removed from the remote, and the event with it.`,
          lastErrorAt: new Date(),
        });
      } else if (
        d.members?.includes(remoteId) &&
        ((resource === 'pinpoint' && d.resource === 'list') ||
          (resource === 'list' && d.resource === 'pinpoint'))
      ) {
        await states().upsert(dKey, {
          resource: d.resource,
          members: d.members.filter((m) => m !== remoteId),
          payloadHash: null,
        });
      }
    }
  };

  /** Takes the remote object away (or marks a category orphaned, since categories cannot be deleted). */
  const remove = async (
    key: EntryKey,
    mapping: Mapping,
    state: StateRecord | null,
    why: string
  ): Promise<PushResult> => {
    // Entries waiting for this one (never synced, so no state) must learn it will not come.
    if (!state) {
      await requeueDependants(strapi, key, `${mapping.resource} gone before it was pushed`);
      return { kind: 'removed' };
    }
    // An imported draft never went online from Strapi: deleting the entry only lets the object go.
    if (state.status === 'imported') {
      // Any version of the entry (a draft included) still there keeps it.
      const row = await strapi.db.query(contentTypeUid(key.contentType)).findOne({
        select: ['id'],
        where: { documentId: key.documentId, ...(key.locale ? { locale: key.locale } : {}) },
      });
      if (row) return { kind: 'unchanged' };
      await states().remove(key);
      return { kind: 'removed' };
    }
    if (state.remoteId == null && state.createStartedAt) {
      // An object made by a create whose answer was lost would stay online without a source.
      const lost = await claimLostCreate(await remoteClient(strapi), key, mapping.resource, state);
      if (lost != null) state = extend(state, { remoteId: lost, status: 'pending' });
    }
    if (state.remoteId != null) {
      if (mapping.resource === 'category') {
        if (state.status !== 'orphaned') {
          await states().upsert(key, {
            resource: 'category',
            status: 'orphaned',
            payloadHash: null,
            lastError: `The entry is no longer published (${why}); the remote has no delete for categories, so category ${state.remoteId} stays online without a source.`,
            lastErrorAt: new Date(),
          });
          // Pinpoints using it must drop it.
          await requeueDependants(strapi, key, 'category orphaned');
        }
        return { kind: 'removed' };
      }
      const client = await remoteClient(strapi);
      await forgetLinksTo(client, key, mapping.resource, state.remoteId);
      await deleteRemote(client, mapping.resource, state.remoteId);
    }
    await states().remove(key);
    await requeueDependants(strapi, key, `${mapping.resource} removed`);
    return { kind: 'removed' };
  };

  return { remove };
}
