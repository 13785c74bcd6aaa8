import type { Core } from '@strapi/strapi';
import type { ResourceKind } from '../remote/types';
import { insertRows } from '../sync/shared/dialect';
import {
  ensureIndex,
  IMPORT_ITEM_UID,
  INVENTORY_UID,
  newRow,
  STATE_UID,
  tableInfo,
} from '../sync/shared/tables';
import schema from '../content-types/import-item/schema.json';

export type ItemStatus = 'new' | 'planned' | 'done' | 'failed' | 'skipped';

type TextAttribute =
  'contentType' | 'entryDocumentId' | 'entryLocale' | 'reason' | 'name' | 'jobId';
/** One row of the import's table, by its attributes' names. */
export type ImportItem = Record<TextAttribute, string | null> & {
  id: number;
  resource: ResourceKind;
  remoteId: number;
  status: ItemStatus;
  pinpointId: number | null;
  /** the Media Library files downloaded for the entry, by URL, before it was created */
  files: Record<string, number> | null;
};

type Row = Record<string, unknown>;
// `media` is a relation (the files being downloaded for the item), not a column.
const ATTRIBUTES = Object.keys(schema.attributes).filter((a) => a !== 'media');

/**
 * The import's table: one row per remote object it met, keyed by (resource, remote id). The
 * entry's documentId is chosen and kept here before the entry is created, so that a job resumed
 * after a crash finds the entry it made instead of making a second one.
 */
export function createImportItems(strapi: Core.Strapi) {
  const knex = () => strapi.db.connection;
  const info = () => tableInfo(strapi, IMPORT_ITEM_UID);
  const columns = (values: object) =>
    Object.fromEntries(Object.entries(values).map(([k, v]) => [info().col(k), v]));

  const ensureIndexes = async () => {
    const { table, col } = info();
    await ensureIndex(strapi, table, 'remote_uq', [col('resource'), col('remoteId')], {
      unique: true,
    });
    await ensureIndex(strapi, table, 'job_idx', [col('jobId'), col('status')]);
  };

  const fromRow = (r: Row): ImportItem => {
    const item = Object.fromEntries(ATTRIBUTES.map((a) => [a, r[info().col(a)] ?? null]));
    // bigint columns come back as strings from PostgreSQL, JSON as text from SQLite and MariaDB
    const [id, remoteId, pinpointId] = [r.id, item.remoteId, item.pinpointId].map((v) =>
      v === null ? null : Number(v)
    );
    const files = typeof item.files === 'string' ? JSON.parse(item.files) : item.files;
    return { ...item, id, remoteId, pinpointId, files } as ImportItem;
  };

  const get = async (resource: ResourceKind, remoteId: number): Promise<ImportItem | null> => {
    const row = await knex()(info().table).where(columns({ resource, remoteId })).first();
    return row ? fromRow(row) : null;
  };

  /** Writes an item's outcome (the pinpoint an event was found under is kept). */
  const put = async (item: Omit<ImportItem, 'id' | 'pinpointId'>) => {
    const { table, col } = info();
    const { resource: _, remoteId: __, ...outcome } = item;
    await insertRows(knex(), table, [newRow(col, new Date(), columns(item))], {
      on: [col('resource'), col('remoteId')],
      set: [...Object.keys(outcome), 'updatedAt'].map(col),
    });
  };

  /** Events found under a pinpoint (`GET /v3.0/events?pinpoint=`). */
  const setPinpoint = async (eventIds: number[], pinpointId: number) => {
    const { table, col } = info();
    const now = new Date();
    const rows = [...new Set(eventIds)].map((remoteId) =>
      newRow(col, now, columns({ resource: 'event', remoteId, status: 'new', pinpointId }))
    );
    await insertRows(knex(), table, rows, {
      on: [col('resource'), col('remoteId')],
      set: [col('pinpointId'), col('updatedAt')],
    });
  };

  const countsOf = async (jobId: string) => {
    const { table, col } = info();
    return (await knex()(table)
      .where(col('jobId'), jobId)
      .select({ resource: col('resource'), status: col('status') })
      .count({ n: '*' })
      .groupBy(col('resource'), col('status'))) as unknown as Array<
      Pick<ImportItem, 'resource' | 'status'> & { n: number | string }
    >;
  };

  /** Failed objects and those imported without part of them, the first 100, and how many in all. */
  const issuesOf = async (jobId: string) => {
    const { table, col } = info();
    const issues = () =>
      knex()(table)
        .where(col('jobId'), jobId)
        .andWhere((w) =>
          w
            .where(col('status'), 'failed')
            .orWhere((d) => d.where(col('status'), 'done').whereNotNull(col('reason')))
        );
    const rows = await issues().orderBy('id').limit(100);
    const [counted] = (await issues().count({ n: '*' })) as unknown as Row[];
    return {
      issueCount: Number(counted.n),
      issues: rows.map(fromRow).map((i: ImportItem) => ({
        resource: i.resource,
        remoteId: i.remoteId,
        name: i.name,
        contentType: i.contentType,
        documentId: i.status === 'done' ? i.entryDocumentId : null,
        imported: i.status === 'done',
        reason: i.reason ?? '',
      })),
    };
  };

  /** The inventory's objects that no sync state holds: what an import takes. */
  const unowned = () => {
    const o = tableInfo(strapi, INVENTORY_UID);
    const st = tableInfo(strapi, STATE_UID);
    const owned = knex()(st.table)
      .whereRaw('??.?? = ??.??', [st.table, st.col('resource'), o.table, o.col('resource')])
      .andWhereRaw('??.?? = ??.??', [st.table, st.col('remoteId'), o.table, o.col('remoteId')])
      .select(knex().raw('1'));
    return { o, query: knex()(o.table).whereNotExists(owned) };
  };

  const unownedByResource = async (): Promise<Record<ResourceKind, number>> => {
    const { o, query } = unowned();
    const rows = (await query
      .select({ resource: o.col('resource') })
      .count({ n: '*' })
      .groupBy(o.col('resource'))) as unknown as Row[];
    const out: Record<ResourceKind, number> = { category: 0, pinpoint: 0, event: 0, list: 0 };
    for (const r of rows) out[r.resource as ResourceKind] = Number(r.n);
    return out;
  };

  /** Unowned events whose pinpoint is not known yet. */
  const eventsWithoutPinpoint = async (): Promise<number> => {
    const { o, query } = unowned();
    const it = info();
    const [row] = await query
      .where(o.col('resource'), 'event')
      .whereNotExists(
        knex()(it.table)
          .where(it.col('resource'), 'event')
          .whereNotNull(it.col('pinpointId'))
          .andWhereRaw('??.?? = ??.??', [it.table, it.col('remoteId'), o.table, o.col('remoteId')])
          .select(knex().raw('1'))
      )
      .count({ n: '*' });
    return Number((row as Row | undefined)?.n ?? 0);
  };

  return {
    ensureIndexes,
    get,
    put,
    setPinpoint,
    countsOf,
    issuesOf,
    unownedByResource,
    eventsWithoutPinpoint,
  };
}
