import { mapEntry, payloadHash, MappingError, loadMedia, type MapOutcome } from '../../mapping';
import { RemoteError } from '../../remote';
import type { ResourceKind } from '../../remote/types';
import PQueue from 'p-queue';
import { pushedFieldsOf } from '../drift/fields';
import { keyLabel, keyString, toKey } from '../shared/keys';
import { isRateLimitWait } from '../../remote/limiter';
import type { StatePatch, StateRecord } from '../state';
import type { EntryKey } from '../shared/types';
import type { Core } from '@strapi/strapi';
import { getService } from '../../utils';
import { pluginConfig } from '../shared/config';
import { CREATE_SETTLED, NO_OBJECT, remoteClient, requeueDependants } from './context';
import type { FailureDetails, PushResult } from './context';
import { createCreator } from './create';
import { membershipDiff, onlyMembersChanged } from './membership';
import { createPayloadSource } from './payload';
import { createRemover, deleteRemote } from './remove';
import { extend } from '../../utils/objects';
import { failureOf } from '../shared/db-error';

export function createPusher(strapi: Core.Strapi) {
  const states = () => getService('state', { strapi });
  // Media bytes are held until their call is answered: only a few payloads carry them at once.
  const mediaSlots = new PQueue({ concurrency: pluginConfig(strapi).rateLimit.concurrency * 2 });
  const source = createPayloadSource(strapi);
  const creator = createCreator(strapi);
  const { claimLostCreate, updateOrCreate } = creator;
  const { remove } = createRemover(strapi, creator);

  // Refs (and their rows) are rewritten only when they change, which most pushes do not. No state
  // counts as no refs: refs rows are only ever written with their state.
  const refsIfChanged = (state: StateRecord | null, refs: NonNullable<StateRecord['refs']>) =>
    JSON.stringify(state?.refs ?? []) === JSON.stringify(refs) ? {} : { refs };

  // Closes the race with a dependency that got its remote id between our read of it and our state
  // write: from that write on, the dependency finds us by our refs; before it, we look.
  const recheck = async (key: EntryKey, resource: ResourceKind, unresolved: EntryKey[]) => {
    for (const ref of unresolved) {
      if ((await states().get(ref))?.remoteId != null) {
        await getService('outbox', { strapi }).enqueue([
          extend(key, { resource, reason: 'dependency ready' }),
        ]);
        return;
      }
    }
  };

  /** Brings the remote object of one entry to its published content; never throws for the entry's own problem. */
  const push = async (key: EntryKey): Promise<PushResult> => {
    const mapping = getService('mappings', { strapi }).forContentType(key.contentType);
    if (!mapping) {
      // A type only read through relations by mapped types: its readers are pushed again.
      // Unmapped, it has no remote object: only values read through it can have changed.
      if (getService('related', { strapi }).isRead(key.contentType))
        await requeueDependants(strapi, key, `${key.contentType} changed`, false);
      return { kind: 'unchanged' };
    }
    const resource = mapping.resource;
    let state = await states().get(key);
    // What the push writes is applied to its own reading of the state, not read back: under the
    // outbox lease no other push writes the entry, and its later steps need only those fields.
    const record = async (patch: StatePatch) => {
      await states().upsert(key, patch);
      return (state = state && extend(state, patch));
    };

    const fail = async (reason: string, retryable: boolean, extra: FailureDetails = {}) => {
      await states().upsert(key, {
        resource,
        // Retryable problems are retried by the worker: the entry is still on its way.
        status: retryable ? 'pending' : 'failed',
        lastError: reason,
        lastErrorAt: new Date(),
        attempts: (state?.attempts ?? 0) + 1,
      });
      return { kind: 'failed' as const, reason, retryable, ...extra };
    };

    try {
      const entry = await source.readEntry(key, mapping);
      if (!entry) return await remove(key, mapping, state, 'unpublished or deleted');

      const ctx = source.mappingContext();
      let outcome: MapOutcome;
      try {
        outcome = await mapEntry(mapping, entry, ctx);
      } catch (err) {
        // An event whose pinpoint is gone cannot stay online pointing at nothing, even one made by
        // a create whose answer was lost (a remote that does not delete events with their pinpoint).
        if (
          err instanceof MappingError &&
          resource === 'event' &&
          err.field === 'pinpoint' &&
          (state?.remoteId != null || state?.createStartedAt)
        ) {
          const client = await remoteClient(strapi);
          const eventId = state.remoteId ?? (await claimLostCreate(client, key, resource, state));
          if (eventId != null) await deleteRemote(client, 'event', eventId);
          await states().upsert(key, { resource, ...NO_OBJECT });
        }
        throw err; // a MappingError fails the push below
      }
      if (outcome.action === 'skip') return await remove(key, mapping, state, outcome.reason);

      const refs = outcome.refs.map((r) => extend(toKey(r), { role: r.role }));
      const blocking = outcome.unresolved.filter((u) => u.blocking).map(toKey);
      if (blocking.length) {
        // The refs it waits for are marked: the worker's sweep must tell waiting from stranded.
        const waitsFor = new Set(blocking.map(keyString));
        await states().upsert(key, {
          resource,
          status: 'pending',
          ...refsIfChanged(
            state,
            refs.map((r) => (waitsFor.has(keyString(r)) ? extend(r, { blocking: true }) : r))
          ),
          lastError: `Waiting for ${blocking.map(keyLabel).join(', ')} to reach the remote first.`,
        });
        await recheck(key, resource, blocking);
        return { kind: 'waiting', on: blocking };
      }

      const hash = payloadHash(outcome);
      if (state?.remoteId != null && state.payloadHash === hash) {
        if (state.status === 'synced') return { kind: 'unchanged' };
        // An imported entry published as it was imported: the remote holds it already.
        if (state.status === 'imported') {
          await states().upsert(key, { resource, status: 'synced', lastSyncedAt: new Date() });
          return { kind: 'unchanged' };
        }
      }

      const client = await remoteClient(strapi);
      const membersOnly = onlyMembersChanged(outcome, state);
      // The bytes of media are read only now that they are sent (a file refused is a MappingError).
      const send = async () => {
        const payload = await loadMedia(
          // The request interfaces have no index signature; from here on the payload's
          // fields are read and cleared by name (withClears in create.ts, pushedFieldsOf).
          outcome.payload as Record<string, unknown>,
          outcome.deferredMedia,
          ctx
        );
        return await updateOrCreate(client, key, mapping, state, payload, record, membersOnly);
      };
      const { remote, sent, made } = outcome.deferredMedia?.length
        ? await mediaSlots.add(send)
        : await send();

      let members = state?.members ?? [];
      let membershipErrors: unknown[] = [];
      if (outcome.members) {
        try {
          ({ members, errors: membershipErrors } = await membershipDiff(
            client,
            resource,
            remote.id,
            made ? [] : members,
            outcome.members
          ));
        } catch (err) {
          // The PUT left out is what finds a list deleted by someone else (and makes it again):
          // the next attempt sends it.
          if (!(membersOnly && err instanceof RemoteError && !err.retryable)) throw err;
          await states().upsert(key, { resource, payloadHash: null });
          return await fail(err.message, true, { httpStatus: err.status });
        }
      }

      // The answer's media URL when it has one (update answers are not documented); none once cleared.
      const urlKey = resource === 'category' ? 'image_url' : 'media_url';
      const cleared = sent[resource === 'category' ? 'image_file' : 'media_file'] === null;
      const mediaUrl =
        resource === 'list' || cleared
          ? null
          : urlKey in remote
            ? (remote[urlKey] ?? null)
            : (state?.mediaUrl ?? null);
      // An adopted id was announced when it was recorded (in create()).
      const changedId = made === 'created';
      const refused = membershipErrors.length
        ? `The remote refused part of the list membership (it will be tried again at the next push): ${JSON.stringify(membershipErrors).slice(0, 1000)}`
        : null;
      await states().upsert(key, {
        resource,
        remoteId: remote.id,
        // No hash after refused members: the next push must try them again.
        payloadHash: refused ? null : hash,
        status: refused ? 'failed' : 'synced',
        attempts: 0,
        lastError: refused,
        lastErrorAt: refused ? new Date() : null,
        lastSyncedAt: new Date(),
        mediaUrl,
        members: outcome.members ? members : null,
        pushedFields: pushedFieldsOf(resource, sent),
        ...refsIfChanged(state, refs),
        ...CREATE_SETTLED,
      });
      // Entries that read this one (its remote id, or other fields through a relation) follow it.
      await requeueDependants(
        strapi,
        key,
        changedId ? `${resource} got its remote id` : `${resource} changed`,
        changedId
      );
      await recheck(key, resource, outcome.unresolved.map(toKey));
      if (refused) return { kind: 'failed', reason: refused, retryable: false };
      return { kind: 'synced', operation: made ? 'create' : 'update' };
    } catch (err) {
      if (err instanceof MappingError) return await fail(err.message, false, { mapping: true });
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
        `[location-content] push of ${key.contentType} ${key.documentId} failed: ${failureOf(err)}`
      );
      return await fail(failureOf(err), true);
    }
  };

  return extend(source, { push });
}
