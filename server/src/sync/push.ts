import type { Core } from '@strapi/strapi';
import type { Mapping } from '../config/types';
import { pushedFieldsOf } from './drift/fields';
import {
  loadMedia,
  mapEntry,
  payloadHash,
  populateFor,
  MappingError,
  type MappingContext,
  type MapOutcome,
} from '../mapping';
import { RemoteError, type RemoteClient } from '../remote';
import { TOKEN_PATH } from '../remote/token';
import type { ResourceKind } from '../remote/types';
import PQueue from 'p-queue';
import { createBatcher, groupBy } from './batcher';
import { keyLabel, keyString, toKey } from './keys';
import { isRateLimitWait } from './limiter';
import type { Outbox } from './outbox';
import { fingerprintOf, type Fingerprint, type Recovery } from './recovery';
import type { Related } from './related';
import type { StateRecord, StateStore } from './state';
import type { EntryKey } from './types';

export interface PushDeps {
  strapi: Core.Strapi;
  states: StateStore;
  outbox: Outbox;
  recovery: Recovery;
  related: Related;
  client: () => Promise<RemoteClient>;
  mappingFor: (contentType: string) => Mapping | undefined;
  readMedia: MappingContext['readMedia'];
  maxMediaBytes: () => number;
  requestTimeoutMs: () => number;
  /** pushes whose media bytes may be held in memory at once */
  mediaConcurrency: number;
}

export type PushResult =
  | { kind: 'synced'; changed: boolean; operation?: 'create' | 'update' }
  | { kind: 'removed' }
  | { kind: 'unchanged' }
  | { kind: 'waiting'; on: EntryKey[] }
  | {
      kind: 'failed';
      reason: string;
      retryable: boolean;
      retryAfterMs?: number;
      throttled?: boolean;
      httpStatus?: number;
      mapping?: boolean;
    };

const now = () => new Date();

/** Text an editor can act on; the remote's own words are kept. */
export const reasonOf = (err: unknown): string => {
  if (err instanceof MappingError) return err.message;
  if (err instanceof RemoteError) return err.message;
  if (err instanceof Error) return err.message;
  return String(err);
};

/**
 * A POST that failed this way created nothing, so the next attempt need not look for it:
 * refused for good (4xx), never sent (its turn under the rate limit never came), or no token
 * to send it with (a 401 changes nothing). Anything else (a 5xx, a lost answer, a 2xx we
 * could not read) may have created the object.
 */
const createDidNotHappen = (err: unknown) =>
  err instanceof RemoteError &&
  (isRateLimitWait(err) ||
    err.path === TOKEN_PATH ||
    (err.status !== undefined && err.status >= 400 && err.status < 500 && !err.retryable));

/** 404 and 410: the remote object is not there (any more). */
const isGone = (err: unknown) => err instanceof RemoteError && err.code === 'not_found';

/** The ids a membership answer's `errors` name. Null when one of them names none: its call is then uncertain. */
export function idsInErrors(errors: unknown[]): Set<number> | null {
  const ids = new Set<number>();
  for (const e of errors) {
    const raw =
      e && typeof e === 'object'
        ? ((e as Record<string, unknown>).id ?? (e as Record<string, unknown>).pk)
        : e;
    const id = typeof raw === 'string' && /^\d+$/.test(raw) ? Number(raw) : raw;
    if (typeof id !== 'number' || !Number.isSafeInteger(id)) return null;
    ids.add(id);
  }
  return ids;
}

/** An absolute public URL of this Strapi (server.url), for links to /uploads inside descriptions. */
const publicUrlOf = (strapi: Core.Strapi): string | undefined => {
  const url = strapi.config.get('server.url') as unknown;
  return typeof url === 'string' && /^https?:\/\//i.test(url) ? url.replace(/\/+$/, '') : undefined;
};

/** What identifies the content of an uploaded file without reading it. */
const mediaIdentity = (file: Record<string, any>): string | undefined => {
  // A bare URL (from a transform) says nothing about the bytes behind it: read them.
  if (file.hash === undefined && file.updatedAt === undefined && file.size === undefined)
    return undefined;
  return JSON.stringify([
    file.url,
    file.hash ?? null,
    file.size ?? null,
    file.updatedAt ?? null,
    file.mime ?? null,
  ]);
};

export function createPusher(deps: PushDeps) {
  const { strapi, states } = deps;
  const mediaSlots = new PQueue({ concurrency: Math.max(1, deps.mediaConcurrency) });

  const modelOf = (uid: string) => strapi.getModel(uid as any) as any;
  const isLocalized = (uid: string) => Boolean(modelOf(uid)?.pluginOptions?.i18n?.localized);
  const hasDraftAndPublish = (uid: string) => Boolean(modelOf(uid)?.options?.draftAndPublish);

  const api = (client: RemoteClient, resource: ResourceKind): any =>
    ({
      pinpoint: client.pinpoints,
      event: client.events,
      category: client.categories,
      list: client.lists,
    })[resource];

  /**
   * Entries asked for at the same moment are read together: one populated query per content
   * type and locale instead of one per entry (a resync reads a page of entries at once).
   */
  const entryReads = createBatcher(
    async (items: Array<{ key: EntryKey; mapping: Mapping }>) => {
      const groups = groupBy(items, (it) => `${it.key.contentType}|${it.key.locale}`);
      const found = new Map<string, Record<string, any>>();
      for (const group of groups.values()) {
        const { key, mapping } = group[0];
        const params: Record<string, unknown> = {
          filters: { documentId: { $in: [...new Set(group.map((it) => it.key.documentId))] } },
          populate: populateFor(mapping, modelOf),
        };
        if (isLocalized(key.contentType)) params.locale = key.locale;
        if (hasDraftAndPublish(key.contentType)) params.status = 'published';
        const entries = (await strapi
          .documents(key.contentType as any)
          .findMany(params as any)) as Array<Record<string, any>>;
        for (const e of entries) found.set(keyString({ ...key, documentId: e.documentId }), e);
      }
      return items.map((it) => found.get(keyString(it.key)) ?? null);
    },
    { maxSize: 100 }
  );

  /** The entry as the remote must show it now: its published version (or the only one without draft & publish). */
  const readEntry = (key: EntryKey, mapping: Mapping): Promise<Record<string, any> | null> =>
    entryReads.load({ key, mapping });

  const context = (key: EntryKey): MappingContext => ({
    getModel: modelOf,
    locale: key.locale || null,
    maxMediaBytes: deps.maxMediaBytes(),
    readMedia: deps.readMedia,
    mediaIdentity,
    publicUrl: publicUrlOf(strapi),
    remoteIdOf: async (ref) => {
      const state = await states.get(toKey(ref));
      return state?.remoteId ?? undefined;
    },
  });

  /**
   * The refs of a state are rewritten (with their rows in the refs table) only when they change:
   * most pushes of an entry use the same related entries as the last one.
   */
  const refsIfChanged = (
    state: StateRecord | null,
    refs: NonNullable<StateRecord['refs']>
  ): { refs?: StateRecord['refs'] } =>
    // No refs before and none now: no rows to replace (refs rows are only written with their state).
    (!state?.refs?.length && !refs.length) ||
    (state && JSON.stringify(state.refs ?? null) === JSON.stringify(refs))
      ? {}
      : { refs };

  const requeueDependants = (key: EntryKey, reason: string, identity = true) =>
    deps.related.requeue(key, reason, { identity });

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

  /**
   * Adds and removes only the difference. What `errors` names (or, when an error names no id,
   * every id of that call) is not recorded as done, so the next push tries it again.
   */
  const membershipDiff = async (
    client: RemoteClient,
    resource: ResourceKind,
    remoteId: number,
    before: number[],
    after: number[]
  ): Promise<{ members: number[]; errors: unknown[] }> => {
    if (resource === 'list' && before.length + after.length > 0) {
      // The remote's own member list, not our record of it: a membership call whose answer was
      // lost (or that a cascade undid) would otherwise leave the difference wrong for ever.
      const actual: number[] = [];
      for await (const p of client.pinpoints.list({ list: remoteId })) actual.push(Number(p.id));
      before = actual;
    }
    const add = after.filter((id) => !before.includes(id));
    const drop = before.filter((id) => !after.includes(id));
    const errors: unknown[] = [];
    const members = new Set(before);
    const apply = (ids: number[], result: { errors?: unknown[] }, done: (id: number) => void) => {
      const errs = result.errors ?? [];
      errors.push(...errs);
      if (!errs.length) return ids.forEach(done);
      const refused = idsInErrors(errs);
      if (refused) ids.filter((id) => !refused.has(id)).forEach(done);
    };
    if (resource === 'list') {
      if (add.length)
        apply(add, await client.lists.addPinpoints(remoteId, add), (id) => members.add(id));
      if (drop.length)
        apply(drop, await client.lists.removePinpoints(remoteId, drop), (id) => members.delete(id));
    } else {
      // A pinpoint that names its lists: one membership call per list changed.
      for (const listId of add) {
        const r = await client.lists.addPinpoints(listId, [remoteId]);
        errors.push(...(r.errors ?? []));
        if (!r.errors?.length) members.add(listId);
      }
      for (const listId of drop) {
        const r = await client.lists.removePinpoints(listId, [remoteId]);
        errors.push(...(r.errors ?? []));
        if (!r.errors?.length) members.delete(listId);
      }
    }
    return { members: [...members], errors };
  };

  /** Deletes a remote object; one that is not there (any more) is as good as deleted. */
  const deleteRemote = async (client: RemoteClient, resource: ResourceKind, id: number) => {
    try {
      await api(client, resource).delete(id);
    } catch (err) {
      if (!isGone(err)) throw err;
    }
  };

  /**
   * What the remote holds for other entries once the object of `key` (remote id `remoteId`) is
   * gone: a pinpoint takes its events with it (the remote deletes them, or we do) and leaves its
   * lists; a list leaves the pinpoints that named it.
   */
  const forgetLinksTo = async (
    client: RemoteClient,
    key: EntryKey,
    resource: ResourceKind,
    remoteId: number
  ) => {
    for (const d of await states.dependantsOf(key)) {
      const dKey = { contentType: d.contentType, documentId: d.documentId, locale: d.locale };
      if (resource === 'pinpoint' && d.resource === 'event' && d.remoteId != null) {
        // Whether or not the remote cascades, no event stays online at a pinpoint that is gone.
        await deleteRemote(client, 'event', d.remoteId);
        await states.upsert(dKey, {
          resource: 'event',
          remoteId: null,
          payloadHash: null,
          status: 'pending',
          createStartedAt: null,
          createFingerprint: null,
          lastError: `Its pinpoint was removed from the remote, and the event with it.`,
          lastErrorAt: now(),
        });
      } else if (
        d.members?.includes(remoteId) &&
        ((resource === 'pinpoint' && d.resource === 'list') ||
          (resource === 'list' && d.resource === 'pinpoint'))
      ) {
        await states.upsert(dKey, {
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
      await requeueDependants(key, `${mapping.resource} gone before it was pushed`);
      return { kind: 'removed' };
    }
    if (state.remoteId == null && state.createStartedAt) {
      // An object made by a create whose answer was lost would stay online without a source.
      const lost = await claimLostCreate(await deps.client(), key, mapping.resource, state);
      if (lost != null) state = { ...state, remoteId: lost, status: 'pending' };
    }
    if (state.remoteId != null) {
      if (mapping.resource === 'category') {
        if (state.status !== 'orphaned') {
          await states.upsert(key, {
            resource: 'category',
            status: 'orphaned',
            payloadHash: null,
            lastError: `The entry is no longer published (${why}); the remote has no delete for categories, so category ${state.remoteId} stays online without a source.`,
            lastErrorAt: now(),
          });
          // Pinpoints using it must drop it.
          await requeueDependants(key, 'category orphaned');
        }
        return { kind: 'removed' };
      }
      const client = await deps.client();
      await forgetLinksTo(client, key, mapping.resource, state.remoteId);
      await deleteRemote(client, mapping.resource, state.remoteId);
    }
    await states.remove(key);
    await requeueDependants(key, `${mapping.resource} removed`);
    return { kind: 'removed' };
  };

  /** Remote ids being claimed by a push of this process: the claim's write may still be in its batch. */
  const claiming = new Set<string>();

  /**
   * A create that started earlier and never recorded its id may have reached the remote: the
   * object it made, if any, is found and recorded as this entry's (its id, or null).
   */
  const claimLostCreate = async (
    client: RemoteClient,
    key: EntryKey,
    resource: ResourceKind,
    state: StateRecord | null,
    fingerprint?: Fingerprint
  ): Promise<number | null> => {
    const fp = (state?.createFingerprint as Fingerprint | null) ?? fingerprint;
    if (!state?.createStartedAt || !fp) return null;
    // Seen failing: anything it created exists by then. Crashed mid-call: by its timeout at the latest.
    const started = state.createStartedAt.getTime();
    const seen =
      state.lastErrorAt && state.lastErrorAt.getTime() >= started
        ? state.lastErrorAt.getTime()
        : undefined;
    const lostAt = seen ?? Math.min(started + deps.requestTimeoutMs(), Date.now());
    strapi.log.warn(
      `[location-content] the create of ${keyLabel(key)} started at ${state.createStartedAt.toISOString()} has no recorded answer${state.lastError ? ` (${state.lastError})` : ''}: looking for it on the remote`
    );
    for (const id of await deps.recovery.candidates(client, resource, fp, lostAt)) {
      // Twins (same name and place) of other entries may be claimed at the same moment.
      const tag = `${resource}:${id}`;
      if (claiming.has(tag)) continue;
      claiming.add(tag);
      try {
        if (await states.isRemoteIdClaimed(resource, id)) continue;
        await states.upsert(key, {
          resource,
          remoteId: id,
          createStartedAt: null,
          createFingerprint: null,
          payloadHash: null,
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
    payload: Record<string, any>
  ): Promise<{
    id: number;
    media_url?: string | null;
    image_url?: string | null;
    adopted: boolean;
  }> => {
    const resource = mapping.resource;
    const fingerprint = fingerprintOf(resource, payload);
    const adopted = await claimLostCreate(client, key, resource, state, fingerprint);
    if (adopted != null) {
      // From the claim on, entries that read this one see its id. Those that went waiting for
      // it are told now: if the update below fails, the push that ends synced is a later one
      // that only updates, and it does not tell them (its id is not new to it).
      await requeueDependants(key, `${resource} got its remote id`);
      const updated = await api(client, resource).update(adopted, payload);
      return { ...updated, id: adopted, adopted: true };
    }
    await states.upsert(key, {
      resource,
      createStartedAt: now(),
      createFingerprint: fingerprint as any,
    });
    try {
      const created = await api(client, resource).create(payload);
      return { ...created, adopted: false };
    } catch (err) {
      // Only this call's own error can prove it: a failure of another call of the push (the
      // walk of an earlier lost create, say) says nothing of what that create did.
      if (createDidNotHappen(err))
        await states.upsert(key, { resource, createStartedAt: null, createFingerprint: null });
      throw err;
    }
  };

  /**
   * Fields the remote holds from an earlier push that the entry no longer has. A PUT that merges
   * would keep an omitted field: they are sent as null, which clears them under both PUT modes.
   */
  const withClears = (
    mapping: Mapping,
    state: StateRecord | null,
    payload: Record<string, any>
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

  /**
   * Brings the remote object of one entry to the entry's current published content.
   * Never throws for an entry's own problem: the outcome says what happened.
   */
  const push = async (key: EntryKey): Promise<PushResult> => {
    const mapping = deps.mappingFor(key.contentType);
    if (!mapping) {
      // A type only read through relations by mapped types: its readers are pushed again.
      // Unmapped, it has no remote object: only values read through it can have changed.
      if (deps.related.isRead(key.contentType))
        await requeueDependants(key, `${key.contentType} changed`, false);
      return { kind: 'unchanged' };
    }
    const resource = mapping.resource;
    let state = await states.get(key);

    const fail = async (
      reason: string,
      retryable: boolean,
      extra: {
        retryAfterMs?: number;
        throttled?: boolean;
        httpStatus?: number;
        mapping?: boolean;
      } = {}
    ): Promise<PushResult> => {
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

      const ctx = context(key);
      let outcome: MapOutcome;
      try {
        outcome = await mapEntry(mapping, entry, ctx);
      } catch (err) {
        if (!(err instanceof MappingError)) throw err;
        // An event whose pinpoint is gone cannot stay online pointing at nothing, even one made by
        // a create whose answer was lost (a remote that does not delete events with their pinpoint).
        if (
          resource === 'event' &&
          err.field === 'pinpoint' &&
          (state?.remoteId != null || state?.createStartedAt)
        ) {
          const client = await deps.client();
          const eventId = state.remoteId ?? (await claimLostCreate(client, key, resource, state));
          if (eventId != null) await deleteRemote(client, 'event', eventId);
          await states.upsert(key, {
            resource,
            remoteId: null,
            payloadHash: null,
            createStartedAt: null,
            createFingerprint: null,
          });
          state = await states.get(key);
        }
        return await fail(`${err.message}`, false, { mapping: true });
      }
      if (outcome.action === 'skip') return await remove(key, mapping, state, outcome.reason);

      const refs = outcome.refs.map((r) => ({ ...toKey(r), role: r.role }));
      const blocking = outcome.unresolved.filter((u) => u.blocking).map((u) => toKey(u));
      if (blocking.length) {
        // The refs it waits for are marked: the worker's sweep must tell waiting from stranded.
        const waitsFor = new Set(blocking.map(keyString));
        await states.upsert(key, {
          resource,
          status: 'pending',
          ...refsIfChanged(
            state,
            refs.map((r) => (waitsFor.has(keyString(r)) ? { ...r, blocking: true } : r))
          ),
          lastError: `Waiting for ${blocking.map(keyLabel).join(', ')} to reach the remote first.`,
        });
        await recheck(key, resource, blocking);
        return { kind: 'waiting', on: blocking };
      }

      const hash = payloadHash(outcome);
      if (state?.remoteId != null && state.payloadHash === hash && state.status === 'synced')
        return { kind: 'unchanged' };

      const client = await deps.client();
      const send = async () => {
        // The bytes of media are read only now that they are sent.
        let payload: Record<string, any>;
        try {
          payload = await loadMedia(
            outcome.payload as Record<string, any>,
            outcome.deferredMedia,
            ctx
          );
        } catch (err) {
          if (err instanceof MappingError) return { refused: err.message };
          throw err;
        }
        let remote:
          { id: number; media_url?: string | null; image_url?: string | null } | undefined;
        let sent: Record<string, any> = payload;
        if (state?.remoteId != null) {
          try {
            sent = withClears(mapping, state, payload);
            remote = await api(client, resource).update(state.remoteId, sent);
            return {
              remote: { ...remote, id: state.remoteId } as NonNullable<typeof remote>,
              sent,
              firstId: false,
              adopted: false,
            };
          } catch (err) {
            // Deleted on the remote by someone else: create it again rather than fail forever.
            if (!isGone(err)) throw err;
            await states.upsert(key, { resource, remoteId: null, members: null, mediaUrl: null });
            state = await states.get(key);
          }
        }
        const created = await create(client, key, mapping, state, payload);
        return { remote: created, sent: payload, firstId: true, adopted: created.adopted };
      };
      // Media bytes are held until their call is answered: only a few payloads carry them at once.
      const answer = outcome.deferredMedia?.length
        ? ((await mediaSlots.add(send)) as Awaited<ReturnType<typeof send>>)
        : await send();
      if ('refused' in answer) return await fail(answer.refused!, false, { mapping: true });
      const { remote, sent, firstId, adopted } = answer;
      const remoteId = Number(remote.id);

      let members = state?.members ?? [];
      let membershipErrors: unknown[] = [];
      if (outcome.members) {
        const result = await membershipDiff(
          client,
          resource,
          remoteId,
          firstId ? [] : members,
          outcome.members
        );
        members = result.members;
        membershipErrors = result.errors;
      }

      // The answer's media URL when it has one (update answers are not documented); none once cleared.
      const urlKey = resource === 'category' ? 'image_url' : 'media_url';
      const cleared = sent[resource === 'category' ? 'image_file' : 'media_file'] === null;
      const mediaUrl =
        resource === 'list' || cleared
          ? null
          : urlKey in remote
            ? ((remote as any)[urlKey] ?? null)
            : (state?.mediaUrl ?? null);
      // An adopted id was announced when it was recorded (in create()).
      const changedId = firstId && !adopted && state?.remoteId !== remoteId;
      const refused = membershipErrors.length
        ? `The remote refused part of the list membership (it will be tried again at the next push): ${JSON.stringify(membershipErrors).slice(0, 1000)}`
        : null;
      await states.upsert(key, {
        resource,
        remoteId,
        // No hash after refused members: the next push must try them again.
        payloadHash: refused ? null : hash,
        status: refused ? 'failed' : 'synced',
        attempts: 0,
        lastError: refused,
        lastErrorAt: refused ? now() : null,
        lastSyncedAt: now(),
        mediaUrl,
        members: outcome.members ? members : null,
        membershipErrors: refused ? membershipErrors : null,
        pushedFields: pushedFieldsOf(resource, sent),
        ...refsIfChanged(state, refs),
        createStartedAt: null,
        createFingerprint: null,
      });
      // Entries that read this one (its remote id, or other fields through a relation) follow it.
      await requeueDependants(
        key,
        changedId ? `${resource} got its remote id` : `${resource} changed`,
        changedId
      );
      if (outcome.unresolved.length)
        await recheck(
          key,
          resource,
          outcome.unresolved.map((u) => toKey(u))
        );
      if (refused) return { kind: 'failed', reason: refused, retryable: false };
      return { kind: 'synced', changed: true, operation: firstId ? 'create' : 'update' };
    } catch (err) {
      if (err instanceof RemoteError) {
        const neverSent = isRateLimitWait(err);
        const reason = neverSent
          ? `Waiting for the remote's rate limit: ${err.message}`
          : err.message;
        return await fail(reason, err.retryable, {
          retryAfterMs: err.retryAfterMs,
          throttled: err.code === 'rate_limited' || neverSent,
          httpStatus: err.status,
        });
      }
      strapi.log.error(
        `[location-content] push of ${key.contentType} ${key.documentId} failed: ${reasonOf(err)}`
      );
      return await fail(reasonOf(err), true);
    }
  };

  return { push, readEntry, mappingContext: context, isLocalized, hasDraftAndPublish };
}

export type Pusher = ReturnType<typeof createPusher>;
