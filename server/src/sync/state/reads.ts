import type { Knex } from 'knex';
import { createBatcher } from '../shared/batcher';
import { keyString, toKey } from '../shared/keys';
import type { EntryKey, SyncStatus } from '../shared/types';
import type { ResourceKind } from '../../remote/types';
import { ENTRY_KEY, keySlices, OUTBOX_UID, tableInfo } from '../shared/tables';
import type { StateRecord, StateRows } from '.';

type Table = ReturnType<typeof tableInfo>;
/** A NOT EXISTS of the row of `other` that has the entry of the current row of `table`. */
const entryIn = (knex: Knex, table: Table, other: Table) =>
  function (this: Knex.QueryBuilder) {
    this.select(knex.raw('1')).from(other.table);
    for (const c of ENTRY_KEY)
      this.whereRaw('??.?? = ??.??', [other.table, other.col(c), table.table, table.col(c)]);
  };

/** The rows of a grouped count, `n` as a number (knex types them as `{ n }` alone, without the groups). */
const counts = async <T>(query: PromiseLike<unknown>) =>
  ((await query) as Array<T & { n: string | number }>).map((r) => ({ ...r, n: Number(r.n) }));

export function createStateReads(stateRows: StateRows) {
  const { strapi, info, col, knex, states, fromRow, page, pages } = stateRows;
  const getMany = async (keys: EntryKey[]): Promise<Map<string, StateRecord>> => {
    const out = new Map<string, StateRecord>();
    for (const where of keySlices(keys, col)) {
      for (const r of await states().modify(where)) {
        const s = fromRow(r);
        out.set(keyString(s), s);
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

  const byRemoteId = (resource: ResourceKind, remoteId: number) =>
    states().where({ [col('resource')]: resource, [col('remoteId')]: remoteId });

  const whereIs = (attr: string, value: string) => (q: Knex.QueryBuilder) =>
    q.where(col(attr), value);

  /**
   * Pending entries nothing is queued for, untouched for `olderThanMs`: one page of candidates (by
   * id, after `after`) per call, `next` where the next goes on (0 at the end). One waiting for an
   * entry without a remote id is not lost: that one re-queues it when it gets its id (if it has had
   * it for `olderThanMs`, and nothing re-queued it, it is).
   */
  const stranded = async (olderThanMs: number, limit: number, after = 0) => {
    const before = new Date(Date.now() - olderThanMs);
    const rows = await states()
      .where(col('status'), 'pending')
      .andWhere(col('updatedAt'), '<', before)
      .andWhere('id', '>', after)
      .whereNotExists(entryIn(knex(), info(), tableInfo(strapi, OUTBOX_UID)))
      .orderBy('id')
      .limit(limit);
    const candidates: StateRecord[] = rows.map(fromRow);
    const next = candidates.length < limit ? 0 : (candidates[candidates.length - 1].id as number);
    const waitsFor = (s: StateRecord) => (s.refs ?? []).filter((r) => r.blocking).map(toKey);
    const dependencies = await getMany(candidates.flatMap(waitsFor));
    const arrived = (d: StateRecord | undefined) =>
      d?.remoteId != null && d.updatedAt != null && d.updatedAt < before;
    const stillWaiting = (s: StateRecord) =>
      waitsFor(s).some((k) => !arrived(dependencies.get(keyString(k))));
    return { lost: candidates.filter((s) => !stillWaiting(s)), next };
  };

  return {
    get: (key: EntryKey): Promise<StateRecord | null> => reads.load(key),
    getMany,
    isRemoteIdClaimed: async (resource: ResourceKind, remoteId: number) =>
      Boolean(await byRemoteId(resource, remoteId).first('id')),
    /** The state that holds a remote object, if any. */
    ownerOf: async (resource: ResourceKind, remoteId: number): Promise<StateRecord | null> => {
      const row = await byRemoteId(resource, remoteId).first();
      return row ? fromRow(row) : null;
    },
    countBy: () => {
      const by = {
        contentType: col('contentType'),
        resource: col('resource'),
        status: col('status'),
      };
      return counts<Pick<StateRecord, 'contentType' | 'resource' | 'status'>>(
        states().select(by).count({ n: '*' }).groupBy(Object.values(by))
      );
    },
    /**
     * Entries queued for their first push (an upsert in the outbox, no state yet), per content
     * type: pending like the others on their way (the entry's own answer calls them so too).
     */
    countQueuedFirstPushes: () => {
      const outbox = tableInfo(strapi, OUTBOX_UID);
      return counts<{ contentType: string }>(
        knex()(outbox.table)
          .select({ contentType: outbox.col('contentType') })
          .count({ n: '*' })
          .where(outbox.col('operation'), 'upsert')
          .whereNotExists(entryIn(knex(), outbox, info()))
          .groupBy(outbox.col('contentType'))
      );
    },
    listByStatus: async (status: SyncStatus, limit: number) => {
      const rows = await states()
        .where(col('status'), status)
        .orderBy(col('updatedAt'), 'desc')
        .limit(limit);
      return rows.map(fromRow);
    },
    /** Pages through every state of one content type by id (from `after`). */
    iterate: (contentType: string, after: number) =>
      pages(whereIs('contentType', contentType), after),
    /** Locales of one document that have a state. */
    localesOf: async (contentType: string, documentId: string): Promise<string[]> => {
      const rows = await states()
        .where({ [col('contentType')]: contentType, [col('entryDocumentId')]: documentId })
        .select({ locale: col('entryLocale') });
      return rows.map((r: { locale: string | null }) => r.locale ?? '');
    },
    pageByStatus: (status: SyncStatus, after: number) => page(whereIs('status', status), after),
    stranded,
  };
}
