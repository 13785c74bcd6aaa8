import type { Core } from '@strapi/strapi';
import { toKey } from '../../sync/shared/keys';
import type { EntryKey, EntryState } from '../../sync/shared/types';
import type { KeyInput } from '../../../../shared/contracts/sync';
import { extend } from '../../utils/objects';
import { getService } from '../../utils';

/** One entry at a time: queue it, read its state, its preview, its history. */
export const createEntries = (strapi: Core.Strapi) => {
  const outbox = () => getService('outbox', { strapi });
  const resourceOf = (uid: string) =>
    getService('mappings', { strapi }).forContentType(uid)?.resource;

  /** A key without a locale names the default locale of a localized type, and '' otherwise. */
  const keyOf = async (key: KeyInput): Promise<EntryKey> => {
    let locale = key.locale;
    if (!locale && getService('push', { strapi }).isLocalized(key.contentType))
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
    await outbox().enqueue(items);
    getService('worker', { strapi }).wake();
    return items.length;
  };

  const stateOf = async (key: KeyInput): Promise<EntryState | null> => {
    const k = await keyOf(key);
    const s = await getService('state', { strapi }).get(k);
    const queued = outbox().intents.has(k) || (await outbox().isQueued(k));
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
    previewOf: async (key: KeyInput) => getService('preview', { strapi })(await keyOf(key)),
    historyOf: async (key: KeyInput) => getService('history', { strapi }).list(await keyOf(key)),
  };
};
