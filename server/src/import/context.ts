import { randomBytes } from 'node:crypto';
import type { Core } from '@strapi/strapi';
import type { Mapping } from '../config/types';
import type { ResourceKind } from '../remote/types';
import { modelOf } from '../sync/shared/strapi';
import { getService } from '../utils';
import type { StrapiSchemaLookup } from '../mapping/types';
import { planFields, type FieldPlan } from './fields';
import type { InverseLookups } from './inverse';
import { createImportItems } from './items';

export const ORDER: ResourceKind[] = ['category', 'pinpoint', 'event', 'list'];

export const messageOf = (err: unknown) => (err instanceof Error ? err.message : String(err));

/** A documentId like Strapi's own: 24 characters of [a-z0-9], a letter first. */
export const newDocumentId = () => {
  const alphabet = 'abcdefghijklmnopqrstuvwxyz0123456789';
  const bytes = randomBytes(24);
  let out = alphabet[bytes[0] % 26];
  for (let i = 1; i < 24; i++) out += alphabet[bytes[i] % alphabet.length];
  return out;
};

/** What every part of an import reads: the target mapping of each resource and its field plan. */
export function createImportContext(strapi: Core.Strapi) {
  const items = createImportItems(strapi);
  const getModel: StrapiSchemaLookup = (uid) => modelOf(strapi, uid);
  const isLocalized = (uid: string) => Boolean(getModel(uid)?.pluginOptions?.i18n?.localized);
  const hasDraftAndPublish = (uid: string) => Boolean(getModel(uid)?.options?.draftAndPublish);

  const plans = new Map<Mapping, FieldPlan>();
  const planOf = (mapping: Mapping): FieldPlan => {
    let plan = plans.get(mapping);
    if (!plan) plans.set(mapping, (plan = planFields(mapping, getModel)));
    return plan;
  };

  const defaultLocale = async (): Promise<string> =>
    strapi.plugin('i18n').service('locales').getDefaultLocale();

  const lookups = (pinpointOf: InverseLookups['pinpointOf']): InverseLookups => ({
    ownerOf: async (resource, remoteId) => {
      const s = await getService('state', { strapi }).ownerOf(resource, remoteId);
      return s ? { contentType: s.contentType, documentId: s.documentId, locale: s.locale } : null;
    },
    membersOf: (listId) => getService('inventory', { strapi }).table.membersOf(listId),
    pinpointOf,
    isLocalized,
  });

  return {
    strapi,
    items,
    getModel,
    isLocalized,
    hasDraftAndPublish,
    planOf,
    defaultLocale,
    lookups,
  };
}

export type ImportContext = ReturnType<typeof createImportContext>;
