import { createBatcher, groupBy } from '../shared/batcher';
import { keyString } from '../shared/keys';
import type { EntryKey, SyncStatus } from '../shared/types';
import type { ResourceKind } from '../../remote/types';
import { OUTBOX_UID, tableInfo } from '../shared/tables';
import type { Knex } from 'knex';
import type { StateRecord, StateRows } from './record';

export function createStateReads({ strapi, info, knex, fromRow }: StateRows) {
  const get = (key: EntryKey): Promise<StateRecord | null> => reads.load(key);

  const getMany = async (keys: EntryKey[]): Promise<Map<string, StateRecord>> => {
    const { table, col } = info();
    const out = new Map<string, StateRecord>();
    const groups = groupBy(keys, (k) => `${k.contentType}|${k.locale}`);
    for (const group of groups.values()) {
      for (let i = 0; i < group.length; i += 500) {
        const slice = group.slice(i, i + 500);
        const rows = await knex()(table)
          .where({
            [col('contentType')]: slice[0].contentType,
            [col('entryLocale')]: slice[0].locale,
          })
          .whereIn(
            col('entryDocumentId'),
            slice.map((k) => k.documentId)
          );
        for (const r of rows) {
          const s = fromRow(r);
          out.set(keyString(s), s);
        }
      }
    }
    return out;
  };

  // Pushes running side by side read and write their states in the same turns of the event
  // loop: one statement each turn instead of one per push.
  const reads = createBatcher(async (keys: EntryKey[]) => {
    const found = await getMany(keys);
    return keys.map((k) => found.get(keyString(k)) ?? null);
  });

  const isRemoteIdClaimed = async (resource: ResourceKind, remoteId: number) => {
    const { table, col } = info();
    const row = await knex()(table)
      .where({ [col('resource')]: resource, [col('remoteId')]: remoteId })
      .first('id');
    return Boolean(row);
  };

  /** The state that holds a remote object, if any. */
  const ownerOf = async (resource: ResourceKind, remoteId: number): Promise<StateRecord | null> => {
    const { table, col } = info();
    const row = await knex()(table)
      .where({ [col('resource')]: resource, [col('remoteId')]: remoteId })
      .first();
    return row ? fromRow(row) : null;
  };

  const countBy = async () => {
    const { table, col } = info();
    // (knex's count() types its rows as { n } alone, dropping the columns selected before it.)
    const rows = (await knex()(table)
      .select({ contentType: col('contentType'), resource: col('resource'), status: col('status') })
      .count({ n: '*' })
      .groupBy(col('contentType'), col('resource'), col('status'))) as unknown as Array<{
      contentType: string;
      resource: ResourceKind;
      status: SyncStatus;
      n: string | number;
    }>;
    return rows.map((r) => ({
      contentType: r.contentType,
      resource: r.resource,
      status: r.status,
      n: Number(r.n),
    }));
  };

  /**
   * Entries queued for their first push (an upsert in the outbox, no state yet), per content
   * type: pending like the others on their way (the entry's own answer calls them so too).
   */
  const countQueuedFirstPushes = async () => {
    const { table, col } = info();
    const outbox = tableInfo(strapi, OUTBOX_UID);
    const rows = (await knex()(outbox.table)
      .select({ contentType: outbox.col('contentType') })
      .count({ n: '*' })
      .where(outbox.col('operation'), 'upsert')
      .whereNotExists(function (this: Knex.QueryBuilder) {
        this.select(knex().raw('1'))
          .from(table)
          .whereRaw('??.?? = ??.??', [
            table,
            col('contentType'),
            outbox.table,
            outbox.col('contentType'),
          ])
          .andWhereRaw('??.?? = ??.??', [
            table,
            col('entryDocumentId'),
            outbox.table,
            outbox.col('entryDocumentId'),
          ])
          .andWhereRaw('??.?? = ??.??', [
            table,
            col('entryLocale'),
            outbox.table,
            outbox.col('entryLocale'),
          ]);
      })
      .groupBy(outbox.col('contentType'))) as unknown as Array<{
      contentType: string;
      n: string | number;
    }>;
    return rows.map((r) => ({ contentType: r.contentType, n: Number(r.n) }));
  };

  const listByStatus = async (status: SyncStatus, limit: number) => {
    const { table, col } = info();
    const rows = await knex()(table)
      .where(col('status'), status)
      .orderBy(col('updatedAt'), 'desc')
      .limit(limit);
    return rows.map(fromRow);
  };

  /** Pages through every state of one content type, `size` at a time, by id (from `after`). */
  async function* iterate(
    contentType: string,
    size = 500,
    after = 0
  ): AsyncGenerator<StateRecord[]> {
    const { table, col } = info();
    for (;;) {
      const rows = await knex()(table)
        .where(col('contentType'), contentType)
        .andWhere('id', '>', after)
        .orderBy('id')
        .limit(size);
      if (!rows.length) return;
      after = rows[rows.length - 1].id;
      yield rows.map(fromRow);
    }
  }

  /** Locales of one document that have a state. */
  const localesOf = async (contentType: string, documentId: string): Promise<string[]> => {
    const { table, col } = info();
    const rows = await knex()(table)
      .where({ [col('contentType')]: contentType, [col('entryDocumentId')]: documentId })
      .select({ locale: col('entryLocale') });
    return rows.map((r: { locale: string | null }) => r.locale ?? '');
  };

  /** States with `status`, `size` at a time by id after `after` (a cursor that later status changes cannot upset). */
  const pageByStatus = async (
    status: SyncStatus,
    after: number,
    size: number
  ): Promise<StateRecord[]> => {
    const { table, col } = info();
    const rows = await knex()(table)
      .where(col('status'), status)
      .andWhere('id', '>', after)
      .orderBy('id')
      .limit(size);
    return rows.map(fromRow);
  };

  return {
    get,
    getMany,
    isRemoteIdClaimed,
    ownerOf,
    countBy,
    countQueuedFirstPushes,
    listByStatus,
    iterate,
    localesOf,
    pageByStatus,
  };
}

export type StateReads = ReturnType<typeof createStateReads>;
