import type { Core } from '@strapi/strapi';
import { toKey } from '../../sync/shared/keys';
import type { EntryKey, EntryState } from '../../sync/shared/types';
import type { KeyInput } from '../../../../shared/contracts/sync';
import type { Engine } from './engine';
import { extend } from '../../utils/objects';

/** One entry at a time: queue it, read its state, its preview, its history. */
export const createEntries = (strapi: Core.Strapi, engine: Engine) => {
  const { outbox, states, pusher, intents, worker, resourceOf } = engine;

  /** A key without a locale names the default locale of a localized type, and '' otherwise. */
  const keyOf = async (key: KeyInput): Promise<EntryKey> => {
    let locale = key.locale;
    if (!locale && pusher.isLocalized(key.contentType))
      locale = await strapi.plugin('i18n').service('locales').getDefaultLocale();
    return toKey(extend(key, { locale }));
  };

  const enqueue = async (keys: KeyInput[], reason: string) => {
    const items = [];
    for (const k of keys) {
      const resource = resourceOf(k.contentType);
      if (!resource) throw new Error(`${k.contentType} is not mapped to the Location Content API`);
      items.push(extend(await keyOf(k), { resource, reason }));
    }
    await outbox.enqueue(items);
    worker.wake();
    return items.length;
  };

  const stateOf = async (key: KeyInput): Promise<EntryState | null> => {
    const k = await keyOf(key);
    const s = await states.get(k);
    const queued = intents.has(k) || (await outbox.isQueued(k));
    if (!s)
      return queued
        ? extend(k, {
            // queued entries are of mapped types: the outbox takes no other
            resource: resourceOf(k.contentType)!,
            status: 'pending' as const,
            remoteId: null,
            attempts: 0,
            lastError: null,
            lastErrorAt: null,
            lastSyncedAt: null,
            mediaUrl: null,
            queued,
          })
        : null;
    return extend(k, {
      resource: s.resource,
      status: s.status,
      remoteId: s.remoteId,
      attempts: s.attempts,
      lastError: s.lastError,
      lastErrorAt: s.lastErrorAt?.toISOString() ?? null,
      lastSyncedAt: s.lastSyncedAt?.toISOString() ?? null,
      mediaUrl: s.mediaUrl,
      queued,
    });
  };

  return {
    enqueue,
    stateOf,
    previewOf: async (key: KeyInput) => engine.preview(await keyOf(key)),
    historyOf: async (key: KeyInput) => engine.history.list(await keyOf(key)),
  };
};
