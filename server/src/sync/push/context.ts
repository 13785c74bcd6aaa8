import type { Core } from '@strapi/strapi';
import type { Mapping } from '../../config/types';
import type { MappingContext } from '../../mapping';
import { RemoteError, type RemoteClient } from '../../remote';
import type { ResourceKind } from '../../remote/types';
import type { Outbox } from '../outbox';
import type { Recovery } from './recovery';
import type { Related } from '../related';
import type { StateStore } from '../state';
import type { EntryKey } from '../shared/types';

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

/** What a create or an update answers that the sync state keeps. */
export type RemoteAnswer = { id: number; media_url?: string | null; image_url?: string | null };

export const now = () => new Date();

/** 404 and 410: the remote object is not there (any more). */
export const isGone = (err: unknown) => err instanceof RemoteError && err.code === 'not_found';

/**
 * What a push calls on the client's API of one resource. Each API takes its own request type;
 * the mapping of that resource made the payload, so the push hands it over as fields by name.
 */
export interface ResourceApi {
  create(payload: Record<string, unknown>): Promise<RemoteAnswer>;
  update(id: number, payload: Record<string, unknown>): Promise<RemoteAnswer>;
  delete(id: number): Promise<unknown>;
}

export const api = (client: RemoteClient, resource: ResourceKind): ResourceApi =>
  // The union of the four APIs has no callable create/update (their parameters differ): the
  // resource picks the API whose request type the mapping's payload is.
  ({
    pinpoint: client.pinpoints,
    event: client.events,
    category: client.categories,
    list: client.lists,
  })[resource] as ResourceApi;

export const requeueDependants = (
  deps: Pick<PushDeps, 'related'>,
  key: EntryKey,
  reason: string,
  identity = true
) => deps.related.requeue(key, reason, { identity });
