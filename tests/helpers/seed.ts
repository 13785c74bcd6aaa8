/**
 * Fast seeding of published Places straight into the tables (no document service, so no
 * document middleware and no outbox row): thousands of entries in seconds, for resync tests
 * and benchmarks. Works on SQLite and PostgreSQL. Table and column names come from Strapi's
 * metadata, not from guesses.
 *
 * Each entry is what the document service would store for a created and published Place in the
 * default locale: a draft row and a published row with the same documentId, each with its own
 * geo component row and link.
 */
import { randomBytes } from 'node:crypto';
import type { Core, UID } from '@strapi/strapi';

const PLACE = 'api::place.place' as UID.CollectionType;
const GEO = 'shared.geo-point';
const CHUNK = 250;

/** A documentId like Strapi's (24 lowercase letters and digits). */
export const newDocumentId = () => {
  const alphabet = 'abcdefghijklmnopqrstuvwxyz0123456789';
  const bytes = randomBytes(24);
  let out = alphabet[bytes[0] % 26];
  for (let i = 1; i < 24; i++) out += alphabet[bytes[i] % alphabet.length];
  return out;
};

/**
 * Where entry `i` of a seed lies: valid coordinates with 2 decimals, because Strapi's `decimal`
 * is decimal(10,2) on PostgreSQL (SQLite keeps more).
 */
export const coordinatesOf = (i: number) => ({
  lat: Math.round(-6000 + ((i * 7919) % 12000)) / 100,
  lng: Math.round(-17000 + ((i * 104729) % 34000)) / 100,
});

/**
 * The ids of a multi-row insert. MySQL and MariaDB have no RETURNING: they give the first id, and
 * the rows of one multi-row INSERT get consecutive ones (InnoDB, any auto-increment lock mode).
 */
const insertedIds = (count: number, result: Array<{ id: number } | number>): number[] => {
  const ids = result.map((r) => (typeof r === 'object' ? r.id : r));
  if (ids.length === 1 && count > 1)
    return Array.from({ length: count }, (_, k) => Number(ids[0]) + k);
  return ids;
};

export const titleOf = (prefix: string, i: number) => `${prefix} ${String(i).padStart(6, '0')}`;

export interface SeedOptions {
  count: number;
  prefix?: string;
  start?: number;
  locale?: string;
  published?: boolean;
  bodyText?: string;
}

export async function seedPlaces(
  strapi: Core.Strapi,
  options: SeedOptions
): Promise<{ count: number; documentIds: string[]; ms: number }> {
  const t0 = Date.now();
  const {
    count,
    prefix = 'Seeded place',
    start = 0,
    published = true,
    bodyText = 'A place worth a visit.',
  } = options;
  const locale =
    options.locale ?? (await strapi.plugin('i18n').service('locales').getDefaultLocale());
  const meta = strapi.db.metadata.get(PLACE);
  const geoMeta = strapi.db.metadata.get(GEO);
  type Meta = typeof meta;
  const col = (m: Meta, a: string) => (m.attributes[a] as { columnName: string }).columnName;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the component's join table, not in Strapi's attribute types
  const link = (meta.attributes.geo as any).joinTable;
  const knex = strapi.db.connection;
  const documentIds: string[] = [];
  const body = JSON.stringify([
    { type: 'paragraph', children: [{ type: 'text', text: bodyText }] },
  ]);

  for (let from = 0; from < count; from += CHUNK) {
    const n = Math.min(CHUNK, count - from);
    await knex.transaction(async (trx) => {
      const now = new Date();
      const rows: Record<string, unknown>[] = [];
      const coords: Array<{ lat: number; lng: number }> = [];
      for (let k = 0; k < n; k++) {
        const i = start + from + k;
        const documentId = newDocumentId();
        documentIds.push(documentId);
        const base = {
          [col(meta, 'documentId')]: documentId,
          [col(meta, 'title')]: titleOf(prefix, i),
          [col(meta, 'body')]: body,
          [col(meta, 'address')]: `${i} Seed Street`,
          [col(meta, 'keywords')]: JSON.stringify(['seed', `batch-${Math.floor(i / 1000)}`]),
          [col(meta, 'credits')]: null,
          [col(meta, 'createdAt')]: now,
          [col(meta, 'updatedAt')]: now,
          [col(meta, 'locale')]: locale,
        };
        rows.push({ ...base, [col(meta, 'publishedAt')]: null });
        coords.push(coordinatesOf(i));
        if (published) {
          rows.push({ ...base, [col(meta, 'publishedAt')]: now });
          coords.push(coordinatesOf(i));
        }
      }
      const placeIds = insertedIds(
        rows.length,
        await trx(meta.tableName).insert(rows).returning('id')
      );
      const geoRows = coords.map((c) => ({
        [col(geoMeta, 'lat')]: c.lat,
        [col(geoMeta, 'lng')]: c.lng,
      }));
      const geoIds = insertedIds(
        geoRows.length,
        await trx(geoMeta.tableName).insert(geoRows).returning('id')
      );
      if (placeIds.length !== rows.length || geoIds.length !== rows.length)
        throw new Error('seedPlaces: RETURNING gave fewer ids than rows');
      const links = placeIds.map((id, k) => ({
        [link.joinColumn.name]: id,
        [link.inverseJoinColumn.name]: geoIds[k],
        component_type: GEO,
        field: 'geo',
        [link.orderColumnName]: null,
      }));
      await trx(link.name).insert(links);
    });
  }

  // Spot checks through the document service: the rows read back as a published Place with its coordinates.
  for (const k of [0, Math.floor(count / 2), count - 1]) {
    if (k < 0 || k >= count || !published) continue;
    const doc = await strapi
      .documents(PLACE)
      .findOne({ documentId: documentIds[k], locale, status: 'published', populate: ['geo'] });
    const want = coordinatesOf(start + k);
    if (
      !doc ||
      doc.title !== titleOf(prefix, start + k) ||
      Number(doc.geo?.lat) !== want.lat ||
      Number(doc.geo?.lng) !== want.lng
    ) {
      throw new Error(
        `seedPlaces: entry ${start + k} does not read back as seeded: ${JSON.stringify(doc)}`
      );
    }
  }
  return { count, documentIds, ms: Date.now() - t0 };
}
