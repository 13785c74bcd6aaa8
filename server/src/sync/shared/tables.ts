import { randomUUID } from 'node:crypto';
import type { Core } from '@strapi/strapi';
import type { Knex } from 'knex';
import { groupBy } from './batcher';
import type { EntryKey } from './types';

export const OUTBOX_UID = 'plugin::location-content.outbox-entry';
export const STATE_UID = 'plugin::location-content.sync-state';
export const REF_UID = 'plugin::location-content.sync-ref';
export const INVENTORY_UID = 'plugin::location-content.inventory-object';
export const INVENTORY_MEMBER_UID = 'plugin::location-content.inventory-member';
export const LEASE_UID = 'plugin::location-content.lease';
export const ATTEMPT_UID = 'plugin::location-content.push-attempt';
export const IMPORT_ITEM_UID = 'plugin::location-content.import-item';

type TableInfo = { table: string; col: (attr: string) => string };
/** Per metadata object: the same for the life of a Strapi instance, asked for several times per push. */
const infos = new WeakMap<object, TableInfo>();

/** Table and column names as Strapi created them, so raw knex stays right whatever the naming rules. */
export function tableInfo(strapi: Core.Strapi, uid: string): TableInfo {
  const meta = strapi.db.metadata.get(uid);
  let info = infos.get(meta);
  if (!info) {
    const columns: Record<string, string> = {};
    for (const [name, attribute] of Object.entries(meta.attributes)) {
      // Only scalar attributes have a column of their own (relations have none).
      if ('columnName' in attribute && attribute.columnName) columns[name] = attribute.columnName;
    }
    info = { table: meta.tableName, col: (attr: string) => columns[attr] ?? attr };
    infos.set(meta, info);
  }
  return info;
}

export { ensureIndex } from './dialect';

let rowsMade = 0;
const processTag = randomUUID().replace(/-/g, '').slice(0, 8);

/**
 * A document id like Strapi's (24 of [0-9a-z]) in the order rows are made: a random one lands each
 * insert on a random page of the column's index, which at 100,000 rows outgrows SQLite's page cache.
 * Time, a counter, then a tag of this process keep ids of replicas apart.
 */
const rowDocumentId = (at: Date) => {
  rowsMade = (rowsMade + 1) % 36 ** 7;
  const time = at.getTime().toString(36).padStart(9, '0');
  return `${time}${rowsMade.toString(36).padStart(7, '0')}${processTag}`;
};

/**
 * A row the plugin inserts: `columns` (later sets win), a document id (Strapi's cuid2 hashes with
 * SHA-3, which cost more than the rest of a batched insert) and the timestamps. Built by assignment:
 * spread literals went to V8's old generation (bench:memory).
 */
export const newRow = (
  col: (attr: string) => string,
  at: Date,
  ...columns: Array<Record<string, unknown>>
): Record<string, unknown> => {
  const row: Record<string, unknown> = {
    [col('documentId')]: rowDocumentId(at),
    [col('createdAt')]: at,
    [col('updatedAt')]: at,
  };
  return Object.assign(row, ...columns);
};

/** Entries of `keys` 500 at a time, one content type and locale each, as a WHERE on `col`'s key columns. */
export function* keySlices(keys: EntryKey[], col: (attr: string) => string) {
  for (const group of groupBy(keys, (k) => `${k.contentType}|${k.locale}`).values()) {
    for (let i = 0; i < group.length; i += 500) {
      const slice = group.slice(i, i + 500);
      const where = {
        [col('contentType')]: slice[0].contentType,
        [col('entryLocale')]: slice[0].locale,
      };
      yield (q: Knex.QueryBuilder) =>
        q.where(where).whereIn(
          col('entryDocumentId'),
          slice.map((k) => k.documentId)
        );
    }
  }
}

/** The attributes of an entry's key, in every plugin table. */
export const ENTRY_KEY = ['contentType', 'entryDocumentId', 'entryLocale'];

/** Those columns with the values of `key`: a row's key, or the WHERE of one entry. */
export const entryColumns = (col: (attr: string) => string, key: EntryKey) => ({
  [col('contentType')]: key.contentType,
  [col('entryDocumentId')]: key.documentId,
  [col('entryLocale')]: key.locale,
});
