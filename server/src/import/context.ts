import { randomBytes } from 'node:crypto';
import { errors } from '@strapi/utils';
import type { Core } from '@strapi/strapi';
import type { Mapping } from '../config/types';
import { RESOURCES, type ResourceKind } from '../remote/types';
import { modelOf } from '../sync/shared/strapi';
import { getService } from '../utils';
import type { ImportInto } from '../../../shared/contracts/import';
import { isLocalized as isLocalizedIn } from '../mapping/populate';
import type { StrapiSchemaLookup } from '../mapping/types';
import { planFields, type FieldPlan, type InverseLookups } from './inverse';
import { createImportItems } from './items';

/** A documentId like Strapi's own: 24 characters of [a-z0-9], a letter first. */
export const newDocumentId = () => {
  const alphabet = 'abcdefghijklmnopqrstuvwxyz0123456789';
  const [first, ...rest] = randomBytes(24);
  return alphabet[first % 26] + rest.map((b) => alphabet[b % 36]).join('');
};

/** What every part of an import reads: the target mapping of each resource and its field plan. */
export function createImportContext(strapi: Core.Strapi) {
  const items = createImportItems(strapi);
  const getModel: StrapiSchemaLookup = (uid) => modelOf(strapi, uid);
  const isLocalized = (uid: string) => isLocalizedIn(uid, getModel);
  /** The `locale` param of a Document Service call: only localized types take one. */
  const localeOf = (uid: string, locale: string) => (isLocalized(uid) ? { locale } : {});
  const hasDraftAndPublish = (uid: string) => Boolean(getModel(uid)?.options?.draftAndPublish);

  const plans = new Map<Mapping, FieldPlan>();
  const planOf = (mapping: Mapping): FieldPlan => {
    let plan = plans.get(mapping);
    if (!plan) plans.set(mapping, (plan = planFields(mapping, getModel)));
    return plan;
  };

  /** The locale asked for, or Strapi's default one; refused unless Strapi has it. */
  const localeFor = async (asked: unknown): Promise<string> => {
    const i18n = strapi.plugin('i18n').service('locales');
    if (asked === undefined || asked === null) return i18n.getDefaultLocale();
    const codes = ((await i18n.find()) as Array<{ code: string }>).map((l) => l.code);
    if (typeof asked !== 'string' || !codes.includes(asked))
      throw new errors.ValidationError(
        `locale must be one of this Strapi's locales (${codes.join(', ')}), got ${JSON.stringify(asked)}`
      );
    return asked;
  };

  /** `unread`: the pinpoint of an event the links did not find (job: none; dry run: not read). */
  const lookups = (unread: null | undefined): InverseLookups => ({
    ownerOf: (resource, remoteId) => getService('state', { strapi }).ownerOf(resource, remoteId),
    membersOf: (listId) => getService('inventory', { strapi }).table.membersOf(listId),
    pinpointOf: async (eventId) => (await items.get('event', eventId))?.pinpointId ?? unread,
    isLocalized,
  });

  return {
    strapi,
    items,
    getModel,
    isLocalized,
    localeOf,
    hasDraftAndPublish,
    planOf,
    localeFor,
    lookups,
  };
}

export type ImportContext = ReturnType<typeof createImportContext>;

/** The content types whose active mapping takes `resource`, in the config's order. */
export const candidatesOf = (mappings: Mapping[], resource: ResourceKind): string[] =>
  mappings.filter((m) => m.resource === resource).map((m) => m.contentType);

/**
 * Which content type receives each resource's objects. Several active mappings may take one
 * resource (places and stands both pinpoints): the caller's choice wins, else the first of them
 * in the config's order. A choice that no active mapping backs is refused, never guessed.
 */
export function resolveTargets(mappings: Mapping[], into?: ImportInto | null) {
  const chosen = (into ?? {}) as Record<string, unknown>;
  if (typeof chosen !== 'object' || Array.isArray(chosen))
    throw new errors.ValidationError(
      'into must be an object such as { pinpoint: "api::place.place" }'
    );
  for (const [resource, uid] of Object.entries(chosen)) {
    if (uid === undefined || uid === null) continue;
    if (!RESOURCES.includes(resource as ResourceKind))
      throw new errors.ValidationError(
        `into.${resource}: not a resource; the resources are ${RESOURCES.join(', ')}`
      );
    const candidates = candidatesOf(mappings, resource as ResourceKind);
    if (typeof uid !== 'string' || !candidates.includes(uid))
      throw new errors.ValidationError(
        `into.${resource}: ${JSON.stringify(uid)} has no active mapping of this resource; ${
          candidates.length
            ? `choose one of ${candidates.join(', ')}`
            : 'no active mapping takes it'
        }`
      );
  }
  const targetOf = (r: ResourceKind) =>
    mappings.find((m) => m.resource === r && (!chosen[r] || m.contentType === chosen[r]));
  return Object.fromEntries(RESOURCES.map((r) => [r, targetOf(r)])) as Record<
    ResourceKind,
    Mapping | undefined
  >;
}
