import type { Knex } from 'knex';
import { keyString, toKey } from '../shared/keys';
import { OUTBOX_UID, tableInfo } from '../shared/tables';
import type { StateRecord, StateRows } from './record';
import type { StateReads } from './reads';

export function createStranded(
  { strapi, info, knex, fromRow }: StateRows,
  { getMany }: Pick<StateReads, 'getMany'>
) {
  /**
   * Pending entries with nothing queued for them, untouched for `olderThanMs`: nothing would ever
   * push them. One page of candidates (by id, after `after`) is looked at per call; `next` is
   * where the next call goes on (0 once the end is reached), so entries left out do not hide the
   * others for ever.
   * An entry waiting for another one that has no remote id yet is not stranded: that one re-queues
   * it when it gets its id (or goes away). Only when every entry it waits for has had an id for
   * `olderThanMs` (the re-queue follows the write of the id closely), and nothing re-queued it,
   * is it lost.
   */
  const stranded = async (
    olderThanMs: number,
    limit: number,
    after = 0
  ): Promise<{ lost: StateRecord[]; next: number }> => {
    const { table, col } = info();
    const outbox = tableInfo(strapi, OUTBOX_UID);
    const before = new Date(Date.now() - olderThanMs);
    const rows = await knex()(table)
      .where(col('status'), 'pending')
      .andWhere(col('updatedAt'), '<', before)
      .andWhere('id', '>', after)
      .whereNotExists(function (this: Knex.QueryBuilder) {
        this.select(knex().raw('1'))
          .from(outbox.table)
          .whereRaw('??.?? = ??.??', [
            outbox.table,
            outbox.col('contentType'),
            table,
            col('contentType'),
          ])
          .andWhereRaw('??.?? = ??.??', [
            outbox.table,
            outbox.col('entryDocumentId'),
            table,
            col('entryDocumentId'),
          ])
          .andWhereRaw('??.?? = ??.??', [
            outbox.table,
            outbox.col('entryLocale'),
            table,
            col('entryLocale'),
          ]);
      })
      .orderBy('id')
      .limit(limit);
    const candidates = rows.map(fromRow);
    const next = candidates.length < limit ? 0 : (candidates[candidates.length - 1].id as number);
    const waitsFor = (s: StateRecord) =>
      (s.refs ?? []).filter((r) => r.blocking).map((r) => toKey(r));
    const dependencies = await getMany(candidates.flatMap(waitsFor));
    const arrived = (d: StateRecord | undefined) =>
      d?.remoteId != null && d.updatedAt != null && d.updatedAt < before;
    const stillWaiting = (s: StateRecord) =>
      waitsFor(s).some((k) => !arrived(dependencies.get(keyString(k))));
    return { lost: candidates.filter((s) => !stillWaiting(s)), next };
  };

  return stranded;
}
