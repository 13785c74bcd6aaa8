import type { Core } from '@strapi/strapi';
import { RemoteError, type RemoteClient } from '../../remote';
import type { createResourceApi } from '../../remote/resource';
import type { ResourceKind } from '../../remote/types';
import type { EntryKey } from '../shared/types';
import { getService } from '../../utils';

/** The remote client as the settings make it now (credentials may change between pushes). */
export const remoteClient = (strapi: Core.Strapi) =>
  getService('settings', { strapi }).remoteClient();

export type PushResult =
  | { kind: 'synced'; operation: 'create' | 'update' }
  | { kind: 'removed' | 'unchanged' }
  | { kind: 'waiting'; on: EntryKey[] }
  | ({ kind: 'failed'; reason: string; retryable: boolean } & FailureDetails);

export type FailureDetails = {
  retryAfterMs?: number;
  throttled?: boolean;
  httpStatus?: number;
  mapping?: boolean;
};

export type RemoteAnswer = { id: number; media_url?: string | null; image_url?: string | null };

export const isGone = (err: unknown) => err instanceof RemoteError && err.code === 'not_found';

/** A state patch that settles a create: none in flight, no object to look for. */
export const CREATE_SETTLED = { createStartedAt: null, createFingerprint: null } as const;
/** ... that forgets the remote object too: the next push creates it. */
export const NO_OBJECT = { remoteId: null, payloadHash: null, ...CREATE_SETTLED } as const;

/** One resource's API as a push calls it, the payload (made by its mapping) as fields by name. */
export const api = (client: RemoteClient, resource: ResourceKind) =>
  // The union of the four APIs has no callable create/update (their parameters differ).
  ({
    pinpoint: client.pinpoints,
    event: client.events,
    category: client.categories,
    list: client.lists,
  })[resource] as ReturnType<
    typeof createResourceApi<RemoteAnswer, Record<string, unknown>, 'pinpoint'>
  >;

export const requeueDependants = (
  strapi: Core.Strapi,
  key: EntryKey,
  reason: string,
  identity = true
) => getService('related', { strapi }).requeue(key, reason, identity);
