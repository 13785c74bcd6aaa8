import type { Core } from '@strapi/strapi';
import type { Mapping } from '../config/types';
import { mapEntry, payloadHash, populateFor, MappingError, type MappingContext, type MapOutcome } from '../mapping';
import { RemoteError, type RemoteClient } from '../remote';
import type { ResourceKind } from '../remote/types';
import { toKey } from './keys';
import type { Outbox } from './outbox';
import { fingerprintOf, type Recovery } from './recovery';
import type { StateRecord, StateStore } from './state';
import type { EntryKey } from './types';

export interface PushDeps {
  strapi: Core.Strapi;
  states: StateStore;
  outbox: Outbox;
  recovery: Recovery;
  client: () => Promise<RemoteClient>;
  mappingFor: (contentType: string) => Mapping | undefined;
  readMedia: MappingContext['readMedia'];
  maxMediaBytes: number;
  requestTimeoutMs: number;
}

export type PushResult =
  | { kind: 'synced'; changed: boolean }
  | { kind: 'removed' }
  | { kind: 'unchanged' }
  | { kind: 'waiting'; on: EntryKey[] }
  | { kind: 'failed'; reason: string; retryable: boolean; retryAfterMs?: number };

const now = () => new Date();

/** Text an editor can act on; the remote's own words are kept. */
export const reasonOf = (err: unknown): string => {
  if (err instanceof MappingError) return err.message;
  if (err instanceof RemoteError) return err.message;
  if (err instanceof Error) return err.message;
  return String(err);
};

export function createPusher(deps: PushDeps) {
  const { strapi, states } = deps;

  const modelOf = (uid: string) => strapi.getModel(uid as any) as any;
  const isLocalized = (uid: string) => Boolean(modelOf(uid)?.pluginOptions?.i18n?.localized);
  const hasDraftAndPublish = (uid: string) => Boolean(modelOf(uid)?.options?.draftAndPublish);

  const api = (client: RemoteClient, resource: ResourceKind): any =>
    ({ pinpoint: client.pinpoints, event: client.events, category: client.categories, list: client.lists })[resource];

  /** The entry as the remote must show it now: its published version (or the only one without draft & publish). */
  const readEntry = async (key: EntryKey, mapping: Mapping) => {
    const params: Record<string, unknown> = {
      documentId: key.documentId,
      populate: populateFor(mapping, modelOf),
    };
    if (isLocalized(key.contentType)) params.locale = key.locale;
    if (hasDraftAndPublish(key.contentType)) params.status = 'published';
    return (await strapi.documents(key.contentType as any).findOne(params as any)) as Record<string, any> | null;
  };

  const context = (key: EntryKey): MappingContext => ({
    getModel: modelOf,
    locale: key.locale || null,
    maxMediaBytes: deps.maxMediaBytes,
    readMedia: deps.readMedia,
    remoteIdOf: async (ref) => {
      const state = await states.get(toKey(ref));
      return state?.remoteId ?? undefined;
    },
  });

  /** Entries whose payload points at `key`, to be pushed again now that its remote id changed or vanished. */
  const requeueDependants = async (key: EntryKey, reason: string) => {
    const dependants = await states.dependantsOf(key);
    await deps.outbox.enqueue(
      dependants.map((d) => ({ contentType: d.contentType, documentId: d.documentId, locale: d.locale, resource: d.resource, reason })),
    );
  };

  /**
   * Closes the race with a dependency that got its remote id between our read of it and our
   * state write: from that write on, the dependency finds us by our refs; before it, we look.
   */
  const recheck = async (key: EntryKey, resource: ResourceKind, unresolved: EntryKey[]) => {
    for (const ref of unresolved) {
      if ((await states.get(ref))?.remoteId != null) {
        await deps.outbox.enqueue([{ ...key, resource, reason: 'dependency ready' }]);
        return;
      }
    }
  };

  const membershipDiff = async (
    client: RemoteClient,
    resource: ResourceKind,
    remoteId: number,
    before: number[],
    after: number[],
  ): Promise<{ members: number[]; errors: unknown[] }> => {
    const add = after.filter((id) => !before.includes(id));
    const drop = before.filter((id) => !after.includes(id));
    const errors: unknown[] = [];
    const members = new Set(before);
    if (resource === 'list') {
      if (add.length) {
        const r = await client.lists.addPinpoints(remoteId, add);
        errors.push(...(r.errors ?? []));
        add.forEach((id) => members.add(id));
      }
      if (drop.length) {
        const r = await client.lists.removePinpoints(remoteId, drop);
        errors.push(...(r.errors ?? []));
        drop.forEach((id) => members.delete(id));
      }
    } else {
      // A pinpoint that names its lists: one membership call per list changed.
      for (const listId of add) {
        const r = await client.lists.addPinpoints(listId, [remoteId]);
        errors.push(...(r.errors ?? []));
        members.add(listId);
      }
      for (const listId of drop) {
        const r = await client.lists.removePinpoints(listId, [remoteId]);
        errors.push(...(r.errors ?? []));
        members.delete(listId);
      }
    }
    return { members: [...members], errors };
  };

  /** Takes the remote object away (or marks a category orphaned, since categories cannot be deleted). */
  const remove = async (key: EntryKey, mapping: Mapping, state: StateRecord | null, why: string): Promise<PushResult> => {
    if (!state) return { kind: 'removed' };
    if (state.remoteId != null) {
      if (mapping.resource === 'category') {
        await states.upsert(key, {
          resource: 'category',
          status: 'orphaned',
          lastError: `The entry is no longer published (${why}); the remote has no delete for categories, so category ${state.remoteId} stays online without a source.`,
          lastErrorAt: now(),
        });
        return { kind: 'removed' };
      }
      const client = await deps.client();
      try {
        await api(client, mapping.resource).delete(state.remoteId);
      } catch (err) {
        if (!(err instanceof RemoteError && err.status === 404)) throw err;
      }
    }
    await states.remove(key);
    if (state.remoteId != null) await requeueDependants(key, `${mapping.resource} removed`);
    return { kind: 'removed' };
  };

  const create = async (
    client: RemoteClient,
    key: EntryKey,
    mapping: Mapping,
    state: StateRecord | null,
    payload: Record<string, any>,
  ): Promise<{ id: number; media_url?: string | null; image_url?: string | null; adopted: boolean }> => {
    const resource = mapping.resource;
    const fingerprint = fingerprintOf(resource, payload);
    // A create that started earlier and never recorded its id may have reached the remote.
    if (state?.createStartedAt) {
      // Seen failing: anything it created exists by then. Crashed mid-call: by its timeout at the latest.
      const started = state.createStartedAt.getTime();
      const seen = state.lastErrorAt && state.lastErrorAt.getTime() >= started ? state.lastErrorAt.getTime() : undefined;
      const lostAt = seen ?? Math.min(started + deps.requestTimeoutMs, Date.now());
      const candidates = await deps.recovery.candidates(client, resource, (state.createFingerprint as any) ?? fingerprint, lostAt);
      for (const id of candidates) {
        if (!(await states.isRemoteIdClaimed(resource, id))) {
          const updated = await api(client, resource).update(id, payload);
          return { ...updated, id, adopted: true };
        }
      }
    }
    await states.upsert(key, { resource, createStartedAt: now(), createFingerprint: fingerprint as any });
    const created = await api(client, resource).create(payload);
    return { ...created, adopted: false };
  };

  /**
   * Brings the remote object of one entry to the entry's current published content.
   * Never throws for an entry's own problem: the outcome says what happened.
   */
  const push = async (key: EntryKey): Promise<PushResult> => {
    const mapping = deps.mappingFor(key.contentType);
    if (!mapping) return { kind: 'unchanged' };
    const resource = mapping.resource;
    let state = await states.get(key);

    const fail = async (reason: string, retryable: boolean, extra: { retryAfterMs?: number } = {}): Promise<PushResult> => {
      await states.upsert(key, {
        resource,
        // Retryable problems are retried by the worker: the entry is still on its way.
        status: retryable ? 'pending' : 'failed',
        lastError: reason,
        lastErrorAt: now(),
        attempts: (state?.attempts ?? 0) + 1,
      });
      return { kind: 'failed', reason, retryable, ...extra };
    };

    try {
      const entry = await readEntry(key, mapping);
      if (!entry) return await remove(key, mapping, state, 'unpublished or deleted');

      let outcome: MapOutcome;
      try {
        outcome = await mapEntry(mapping, entry, context(key));
      } catch (err) {
        if (!(err instanceof MappingError)) throw err;
        // An event whose pinpoint is gone cannot stay online pointing at nothing.
        if (resource === 'event' && err.field === 'pinpoint' && state?.remoteId != null) {
          const client = await deps.client();
          await client.events.delete(state.remoteId).catch((e: unknown) => {
            if (!(e instanceof RemoteError && e.status === 404)) throw e;
          });
          await states.upsert(key, { resource, remoteId: null, payloadHash: null });
          state = await states.get(key);
        }
        return await fail(`${err.message}`, false);
      }
      if (outcome.action === 'skip') return await remove(key, mapping, state, outcome.reason);

      const refs = outcome.refs.map((r) => toKey(r));
      const blocking = outcome.unresolved.filter((u) => u.blocking).map((u) => toKey(u));
      if (blocking.length) {
        await states.upsert(key, {
          resource,
          status: 'pending',
          refs,
          lastError: `Waiting for ${blocking.map((b) => `${b.contentType} ${b.documentId}${b.locale ? ` (${b.locale})` : ''}`).join(', ')} to reach the remote first.`,
        });
        await recheck(key, resource, blocking);
        return { kind: 'waiting', on: blocking };
      }

      const hash = payloadHash(outcome);
      if (state?.remoteId != null && state.payloadHash === hash && state.status === 'synced') return { kind: 'unchanged' };

      const client = await deps.client();
      const payload = outcome.payload as Record<string, any>;
      let remote: { id: number; media_url?: string | null; image_url?: string | null } | undefined;
      let firstId = false;
      if (state?.remoteId != null) {
        try {
          remote = await api(client, resource).update(state.remoteId, payload);
          remote = { ...remote, id: state.remoteId } as any;
        } catch (err) {
          // Deleted on the remote by someone else: create it again rather than fail forever.
          if (!(err instanceof RemoteError && err.status === 404)) throw err;
          await states.upsert(key, { resource, remoteId: null, members: null });
          state = await states.get(key);
        }
      }
      if (!remote) {
        remote = await create(client, key, mapping, state, payload);
        firstId = true;
      }
      const remoteId = Number(remote!.id);

      let members = state?.members ?? [];
      let membershipErrors: unknown[] = [];
      if (outcome.members) {
        const result = await membershipDiff(client, resource, remoteId, firstId ? [] : members, outcome.members);
        members = result.members;
        membershipErrors = result.errors;
      }

      const changedId = firstId && state?.remoteId !== remoteId;
      await states.upsert(key, {
        resource,
        remoteId,
        payloadHash: membershipErrors.length ? null : hash,
        status: membershipErrors.length ? 'failed' : 'synced',
        attempts: 0,
        lastError: membershipErrors.length
          ? `The remote refused part of the list membership: ${JSON.stringify(membershipErrors).slice(0, 1000)}`
          : null,
        lastErrorAt: membershipErrors.length ? now() : null,
        lastSyncedAt: now(),
        mediaUrl: remote!.media_url ?? remote!.image_url ?? state?.mediaUrl ?? null,
        members: outcome.members ? members : null,
        membershipErrors: membershipErrors.length ? membershipErrors : null,
        refs,
        createStartedAt: null,
        createFingerprint: null,
      });
      if (changedId) await requeueDependants(key, `${resource} got its remote id`);
      if (outcome.unresolved.length) await recheck(key, resource, outcome.unresolved.map((u) => toKey(u)));
      if (membershipErrors.length) return { kind: 'failed', reason: 'list membership errors', retryable: true };
      return { kind: 'synced', changed: true };
    } catch (err) {
      if (err instanceof RemoteError) {
        // A create that got a definite refusal did not happen: no recovery walk next time.
        if (!err.retryable && state?.remoteId == null) {
          await states.upsert(key, { resource, createStartedAt: null, createFingerprint: null }).catch(() => undefined);
        }
        return await fail(err.message, err.retryable, { retryAfterMs: err.retryAfterMs });
      }
      strapi.log.error(`[location-content] push of ${key.contentType} ${key.documentId} failed: ${reasonOf(err)}`);
      return await fail(reasonOf(err), true);
    }
  };

  return { push, readEntry, mappingContext: context, isLocalized, hasDraftAndPublish };
}

export type Pusher = ReturnType<typeof createPusher>;
