import { randomBytes } from 'node:crypto';
import type { Core } from '@strapi/strapi';
import type { Mapping, PluginConfig } from '../config/types';
import type { RemoteClient } from '../remote';
import type { ResourceKind } from '../remote/types';
import type { InventoryTable } from '../sync/inventory/table';
import type { InventoryWalk } from '../sync/inventory/walk';
import type { Pusher } from '../sync/push';
import type { MediaFetch } from '../sync/push/media';
import type { StateStore } from '../sync/state';
import { modelOf } from '../sync/shared/strapi';
import type { StrapiSchemaLookup } from '../mapping/types';
import { planFields, type FieldPlan } from './fields';
import type { InverseLookups } from './inverse';
import type { ImportItems } from './items';

export interface ImportDeps {
  strapi: Core.Strapi;
  states: StateStore;
  pusher: Pusher;
  table: InventoryTable;
  walk: InventoryWalk;
  items: ImportItems;
  client: () => Promise<RemoteClient>;
  /** runs a remote call behind the pushes in the rate-limited queue */
  background: <T>(fn: () => Promise<T>) => Promise<T>;
  /** fetch behind the same rate limit, for the files the remote serves (media_url, image_url) */
  mediaFetch: MediaFetch;
  mappings: () => Mapping[];
  config: () => PluginConfig;
}

export const ORDER: ResourceKind[] = ['category', 'pinpoint', 'event', 'list'];

/** A documentId like Strapi's own: 24 characters of [a-z0-9], a letter first. */
export const newDocumentId = () => {
  const alphabet = 'abcdefghijklmnopqrstuvwxyz0123456789';
  const bytes = randomBytes(24);
  let out = alphabet[bytes[0] % 26];
  for (let i = 1; i < 24; i++) out += alphabet[bytes[i] % alphabet.length];
  return out;
};

/** What every part of an import reads: the target mapping of each resource and its field plan. */
export function createImportContext(deps: ImportDeps) {
  const getModel: StrapiSchemaLookup = (uid) => modelOf(deps.strapi, uid);
  const isLocalized = (uid: string) => Boolean(getModel(uid)?.pluginOptions?.i18n?.localized);
  const hasDraftAndPublish = (uid: string) => Boolean(getModel(uid)?.options?.draftAndPublish);

  const plans = new Map<Mapping, FieldPlan>();
  const planOf = (mapping: Mapping): FieldPlan => {
    let plan = plans.get(mapping);
    if (!plan) plans.set(mapping, (plan = planFields(mapping, getModel)));
    return plan;
  };

  const defaultLocale = async (): Promise<string> =>
    deps.strapi.plugin('i18n').service('locales').getDefaultLocale();

  const lookups = (pinpointOf: InverseLookups['pinpointOf']): InverseLookups => ({
    ownerOf: async (resource, remoteId) => {
      const s = await deps.states.ownerOf(resource, remoteId);
      return s ? { contentType: s.contentType, documentId: s.documentId, locale: s.locale } : null;
    },
    membersOf: (listId) => deps.table.membersOf(listId),
    pinpointOf,
    isLocalized,
  });

  return { getModel, isLocalized, hasDraftAndPublish, planOf, defaultLocale, lookups };
}

export type ImportContext = ReturnType<typeof createImportContext>;
