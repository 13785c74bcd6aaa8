import type { Core } from '@strapi/strapi';
import { RemoteError, type RemoteClient } from '../../remote';
import type { ResourceKind } from '../../remote/types';
import type { EntryKey } from '../shared/types';
import { getService } from '../../utils';

/** The remote client as the settings make it now (credentials may change between pushes). */
export const remoteClient = (strapi: Core.Strapi) =>
  getService('settings', { strapi }).remoteClient();

export type PushResult =
  | { kind: 'synced'; changed: boolean; operation?: 'create' | 'update' }
  | { kind: 'removed' }
  | { kind: 'unchanged' }
  | { kind: 'waiting'; on: EntryKey[] }
  | ({ kind: 'failed'; reason: string; retryable: boolean } & FailureDetails);

export type FailureDetails = {
  retryAfterMs?: number;
  throttled?: boolean;
  httpStatus?: number;
  mapping?: boolean;
};

/** What a create or an update answers that the sync state keeps. */
export type RemoteAnswer = { id: number; media_url?: string | null; image_url?: string | null };

/** 404 and 410: the remote object is not there (any more). */
export const isGone = (err: unknown) => err instanceof RemoteError && err.code === 'not_found';

/** What a push calls on one resource's API, the payload (made by that resource's mapping) as fields by name. */
export interface ResourceApi {
  create(payload: Record<string, unknown>): Promise<RemoteAnswer>;
  update(id: number, payload: Record<string, unknown>): Promise<RemoteAnswer>;
  delete(id: number): Promise<unknown>;
}

export const api = (client: RemoteClient, resource: ResourceKind): ResourceApi =>
  // The union of the four APIs has no callable create/update (their parameters differ).
  ({
    pinpoint: client.pinpoints,
    event: client.events,
    category: client.categories,
    list: client.lists,
  })[resource] as ResourceApi;

export const requeueDependants = (
  strapi: Core.Strapi,
  key: EntryKey,
  reason: string,
  identity = true
) => getService('related', { strapi }).requeue(key, reason, { identity });
