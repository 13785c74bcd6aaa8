import type { Mapping } from '../../config/types';
import type { RemoteClient } from '../../remote';
import type { StateRecord } from '../state';
import type { EntryKey } from '../shared/types';
import type { Core } from '@strapi/strapi';
import { getService } from '../../utils';
import { api, isGone, type RemoteAnswer } from './context';
import type { Creator } from './create';
import { extend } from '../../utils/objects';

/** What a push sent and what the remote answered. */
export type Sent = {
  remote: RemoteAnswer;
  sent: Record<string, unknown>;
  /** the object got its id from this push (a create, or a lost create adopted) */
  firstId: boolean;
  adopted: boolean;
  /** the object's own fields were not sent: they are those of the last push */
  unsent?: boolean;
};

/**
 * Fields the remote holds from an earlier push that the entry no longer has. A PUT that merges
 * would keep an omitted field: they are sent as null, which clears them under both PUT modes.
 */
const withClears = (
  mapping: Mapping,
  state: StateRecord | null,
  payload: Record<string, unknown>
) => {
  if (state?.remoteId == null) return payload;
  const fields = (mapping.fields ?? {}) as unknown as Record<string, unknown>;
  const out = { ...payload };
  if (
    mapping.resource === 'pinpoint' &&
    fields.category &&
    out.category === undefined &&
    state.refs?.some((r) => r.role === 'category')
  ) {
    out.category = null;
  }
  const media =
    mapping.resource === 'category'
      ? ['image', 'image_file']
      : mapping.resource === 'list'
        ? null
        : ['media', 'media_file'];
  if (media && fields[media[0]] && out[media[1]] === undefined && state.mediaUrl)
    out[media[1]] = null;
  return out;
};

export function createUpdater(strapi: Core.Strapi, { create }: Pick<Creator, 'create'>) {
  const states = () => getService('state', { strapi });

  /**
   * Updates the entry's remote object, or creates it when it has none. `reread` is the push's
   * own reading of the state, so that a failure after the object was found gone counts from
   * the state as it is then. `fieldsUnchanged`: the object's fields are those of the last push,
   * and are not sent again.
   */
  const updateOrCreate = async (
    client: RemoteClient,
    key: EntryKey,
    mapping: Mapping,
    state: StateRecord | null,
    payload: Record<string, unknown>,
    reread: () => Promise<StateRecord | null>,
    fieldsUnchanged = false
  ): Promise<Sent> => {
    const resource = mapping.resource;
    if (state?.remoteId != null && fieldsUnchanged)
      return {
        remote: { id: state.remoteId },
        sent: payload,
        firstId: false,
        adopted: false,
        unsent: true,
      };
    if (state?.remoteId != null) {
      try {
        const sent = withClears(mapping, state, payload);
        const remote: RemoteAnswer = await api(client, resource).update(state.remoteId, sent);
        return {
          remote: extend(remote, { id: state.remoteId }),
          sent,
          firstId: false,
          adopted: false,
        };
      } catch (err) {
        // Deleted on the remote by someone else: create it again rather than fail forever.
        if (!isGone(err)) throw err;
        await states().upsert(key, { resource, remoteId: null, members: null, mediaUrl: null });
        state = await reread();
      }
    }
    const created = await create(client, key, mapping, state, payload);
    return { remote: created, sent: payload, firstId: true, adopted: created.adopted };
  };

  return { updateOrCreate };
}
