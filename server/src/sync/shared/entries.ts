import type { Core } from '@strapi/strapi';
import type { SchemaModel } from '../../mapping/types';
import { isLocalizedModel } from '../../mapping/populate';
import type { StateRecord, StateStore } from '../state';
import { modelOf } from './strapi';
import type { EntryKey } from './types';

const PAGE = 500;

/** What "online" means for a model: published, or simply saved without draft & publish. */
const onlineWhere = (model: SchemaModel | undefined): Record<string, unknown> =>
  model?.options?.draftAndPublish ? { publishedAt: { $notNull: true } } : {};

/**
 * Keys of the online entries of `uid` that match `where`, a page at a time in id order from
 * `after` (a cursor that survives a restart).
 */
export async function* onlineKeyPages(
  strapi: Core.Strapi,
  uid: string,
  where: Record<string, unknown> = {},
  after = 0
): AsyncGenerator<{ after: number; keys: EntryKey[] }> {
  const model = modelOf(strapi, uid);
  const localized = isLocalizedModel(model);
  const online = onlineWhere(model);
  for (;;) {
    const rows: Array<{ id: number; documentId: string; locale?: string | null }> = await strapi.db
      .query(uid)
      .findMany({
        select: localized ? ['id', 'documentId', 'locale'] : ['id', 'documentId'],
        where: Object.assign({}, where, online, { id: { $gt: after } }),
        orderBy: { id: 'asc' },
        limit: PAGE,
      });
    if (!rows.length) return;
    after = rows[rows.length - 1].id;
    // A type without locales has none selected: its keys' locale is ''.
    const keys = rows.map((r) => ({
      contentType: uid,
      documentId: r.documentId,
      locale: r.locale ?? '',
    }));
    yield { after, keys };
    if (rows.length < PAGE) return;
  }
}

/** States of `uid` whose entry is no longer online (unpublished, deleted), a page at a time from `after`. */
export async function* goneStatePages(
  strapi: Core.Strapi,
  states: StateStore,
  uid: string,
  after = 0
): AsyncGenerator<StateRecord[] & { after: number }> {
  const model = modelOf(strapi, uid);
  for await (const page of states.iterate(uid, after)) {
    const where = {
      documentId: { $in: [...new Set(page.map((s) => s.documentId))] },
      ...onlineWhere(model),
    };
    const present: Array<{ documentId: string; locale?: string | null }> = await strapi.db
      .query(uid)
      .findMany({ select: ['documentId', 'locale'], where });
    const alive = new Set(present.map((p) => `${p.documentId}|${p.locale ?? ''}`));
    const gone = page.filter((s) => !alive.has(`${s.documentId}|${s.locale}`));
    yield Object.assign(gone, { after: page[page.length - 1].id as number });
  }
}
