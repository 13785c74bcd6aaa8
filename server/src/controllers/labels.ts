import type { Core, Schema, UID } from '@strapi/strapi';
import { keyString } from '../sync/shared/keys';
import type { EntryKey } from '../sync/shared/types';
import { isLocalizedModel } from '../mapping/populate';

/** Attribute types a title can be read from. */
const TITLE_TYPES =
  'string text uid email enumeration integer biginteger decimal float date datetime';

/** The field the Content Manager shows as an entry's title (its "main field"), when it is a plain attribute. */
async function mainField(strapi: Core.Strapi, uid: string): Promise<string | null> {
  const model: Schema.ContentType | undefined = strapi.contentTypes[uid as UID.ContentType];
  if (!model) return null;
  const cm = strapi.plugin('content-manager').service('content-types');
  const field: string | undefined = (await cm.findConfiguration({ uid }).catch(() => null))
    ?.settings?.mainField;
  const attribute = field ? model.attributes?.[field] : undefined;
  if (!field || field === 'id' || field === 'documentId' || !attribute) return null;
  return TITLE_TYPES.split(' ').includes(attribute.type) ? field : null;
}

/**
 * Entry titles for lists of keys (failed entries, dry-run plan), so an admin reads "Louvre" rather than a
 * documentId. One query per content type; an entry without a title (or gone) gets none.
 */
export async function withLabels<T extends EntryKey>(
  strapi: Core.Strapi,
  keys: T[]
): Promise<Array<T & { label: string | null }>> {
  const labels = new Map<string, string>();
  const anyLocale = (uid: string, documentId: string) => `${uid}|${documentId}|*`;
  const byType = new Map<string, Set<string>>();
  for (const k of keys)
    byType.set(k.contentType, (byType.get(k.contentType) ?? new Set()).add(k.documentId));
  for (const [uid, ids] of byType) {
    const field = await mainField(strapi, uid);
    if (!field) continue;
    const localized = isLocalizedModel(strapi.contentTypes[uid as UID.ContentType]);
    const rows: Array<{ documentId: string; locale?: string | null; [field: string]: unknown }> =
      await strapi.db.query(uid as UID.Schema).findMany({
        select: ['documentId', field, ...(localized ? ['locale'] : [])],
        where: { documentId: { $in: [...ids] } },
      });
    for (const row of rows) {
      const value = row[field];
      if (value === null || value === undefined || value === '') continue;
      const text = String(value).slice(0, 200);
      const locale = localized ? (row.locale ?? '') : '';
      labels.set(keyString({ contentType: uid, documentId: row.documentId, locale }), text);
      // any locale's title is better than none
      if (!labels.has(anyLocale(uid, row.documentId)))
        labels.set(anyLocale(uid, row.documentId), text);
    }
  }
  return keys.map((k) => ({
    ...k,
    label: labels.get(keyString(k)) ?? labels.get(anyLocale(k.contentType, k.documentId)) ?? null,
  }));
}

/** A report whose lists of entry keys named in `lists` get their labels; the rest is kept. */
export async function withLabelsIn<R, K extends keyof R>(
  strapi: Core.Strapi,
  report: R,
  lists: readonly K[]
): Promise<R> {
  const out = { ...report };
  for (const k of lists) out[k] = (await withLabels(strapi, report[k] as EntryKey[])) as R[K];
  return out;
}
