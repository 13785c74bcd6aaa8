import type { Mapping } from '../../config/types';
import { RemoteError, type RemoteClient } from '../../remote';
import { TOKEN_PATH } from '../../remote/token';
import type { ResourceKind } from '../../remote/types';
import { keyLabel } from '../shared/keys';
import { isRateLimitWait } from '../../remote/limiter';
import type { StatePatch, StateRecord } from '../state';
import type { EntryKey } from '../shared/types';
import type { Core } from '@strapi/strapi';
import { getService } from '../../utils';
import { pluginConfig } from '../shared/config';
import { createRecovery, fingerprintOf, type Fingerprint } from './recovery';
import { api, CREATE_SETTLED, isGone, requeueDependants, type RemoteAnswer } from './context';
import { extend } from '../../utils/objects';

// A POST that failed this way created nothing: refused for good (4xx), never sent (its rate-limit
// turn never came) or no token. Anything else (5xx, lost answer, unreadable 2xx) may have created it.
const createDidNotHappen = (err: unknown) =>
  err instanceof RemoteError &&
  (isRateLimitWait(err) ||
    err.path === TOKEN_PATH ||
    (err.status !== undefined && err.status >= 400 && err.status < 500 && !err.retryable));

export type Sent = {
  remote: RemoteAnswer;
  sent: Record<string, unknown>;
  /** how the object got its id from this push; none for an update */
  made?: 'created' | 'adopted';
};

// Fields the remote holds from an earlier push that the entry no longer has go as null: a PUT that
// merges would keep an omitted field, null clears it under both PUT modes.
const withClears = (mapping: Mapping, state: StateRecord, payload: Record<string, unknown>) => {
  const fields = mapping.fields as unknown as Record<string, unknown>;
  const out = { ...payload };
  // Only pinpoints map a category (a relation, kept in the refs); lists map no media.
  if (
    fields.category &&
    out.category === undefined &&
    state.refs?.some((r) => r.role === 'category')
  )
    out.category = null;
  const [from, to] =
    mapping.resource === 'category' ? ['image', 'image_file'] : ['media', 'media_file'];
  if (fields[from] && out[to] === undefined && state.mediaUrl) out[to] = null;
  return out;
};

export function createCreator(strapi: Core.Strapi) {
  const states = () => getService('state', { strapi });

  /** Remote ids being claimed by a push of this process: the claim's write may still be in its batch. */
  const claiming = new Set<string>();

  // A create that started earlier and never recorded its id may have reached the remote: the object
  // it made, if any, is found and recorded as this entry's (its id, or null).
  const claimLostCreate = async (
    client: RemoteClient,
    key: EntryKey,
    resource: ResourceKind,
    state: StateRecord | null,
    fingerprint?: Fingerprint
  ): Promise<number | null> => {
    const fp = state?.createFingerprint ?? fingerprint;
    if (!state?.createStartedAt || !fp) return null;
    // Seen failing: anything it created exists by then. Crashed mid-call: by its timeout at the latest.
    const started = state.createStartedAt.getTime();
    const seen = state.lastErrorAt?.getTime() ?? 0;
    const lostAt =
      seen >= started
        ? seen
        : Math.min(started + pluginConfig(strapi).requestTimeoutMs, Date.now());
    strapi.log.warn(
      `[location-content] the create of ${keyLabel(key)} started at ${state.createStartedAt.toISOString()} has no recorded answer${state.lastError ? ` (${state.lastError})` : ''}: looking for it on the remote`
    );
    const recovery = createRecovery(getService('inventory', { strapi }));
    for (const id of await recovery.candidates(client, resource, fp, lostAt)) {
      // Twins (same name and place) of other entries may be claimed at the same moment.
      const tag = `${resource}:${id}`;
      if (claiming.has(tag)) continue;
      claiming.add(tag);
      try {
        if (await states().isRemoteIdClaimed(resource, id)) continue;
        await states().upsert(key, {
          resource,
          remoteId: id,
          payloadHash: null,
          ...CREATE_SETTLED,
        });
        return id;
      } finally {
        claiming.delete(tag);
      }
    }
    return null;
  };

  const create = async (
    client: RemoteClient,
    key: EntryKey,
    mapping: Mapping,
    state: StateRecord | null,
    payload: Record<string, unknown>
  ): Promise<Sent> => {
    const resource = mapping.resource;
    const fingerprint = fingerprintOf(resource, payload);
    const adopted = await claimLostCreate(client, key, resource, state, fingerprint);
    if (adopted != null) {
      // From the claim on, entries that read this one see its id. Those that went waiting for
      // it are told now: if the update below fails, the push that ends synced is a later one
      // that only updates, and it does not tell them (its id is not new to it).
      await requeueDependants(strapi, key, `${resource} got its remote id`);
      const remote = extend(await api(client, resource).update(adopted, payload), { id: adopted });
      return { remote, sent: payload, made: 'adopted' };
    }
    await states().upsert(key, {
      resource,
      createStartedAt: new Date(),
      createFingerprint: fingerprint,
    });
    try {
      const remote = await api(client, resource).create(payload);
      return { remote, sent: payload, made: 'created' };
    } catch (err) {
      // Only this call's own error can prove it: a failure of another call of the push (the
      // walk of an earlier lost create, say) says nothing of what that create did.
      if (createDidNotHappen(err)) await states().upsert(key, { resource, ...CREATE_SETTLED });
      throw err;
    }
  };

  // Updates the entry's remote object, or creates it when it has none. `record` writes the state and
  // applies it to the push's own reading; `fieldsUnchanged`: those of the last push, not sent again.
  const updateOrCreate = async (
    client: RemoteClient,
    key: EntryKey,
    mapping: Mapping,
    state: StateRecord | null,
    payload: Record<string, unknown>,
    record: (patch: StatePatch) => Promise<StateRecord | null>,
    fieldsUnchanged = false
  ): Promise<Sent> => {
    const resource = mapping.resource;
    if (state?.remoteId != null) {
      const id = state.remoteId;
      if (fieldsUnchanged) return { remote: { id }, sent: payload };
      try {
        const sent = withClears(mapping, state, payload);
        const remote = extend(await api(client, resource).update(id, sent), { id });
        return { remote, sent };
      } catch (err) {
        // Deleted on the remote by someone else: create it again rather than fail forever.
        if (!isGone(err)) throw err;
        state = await record({ resource, remoteId: null, members: null, mediaUrl: null });
      }
    }
    return create(client, key, mapping, state, payload);
  };

  return { claimLostCreate, updateOrCreate };
}

export type Creator = ReturnType<typeof createCreator>;
