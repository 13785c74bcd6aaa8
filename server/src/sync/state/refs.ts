import type { Knex } from 'knex';
import { createBatcher } from '../shared/batcher';
import { ENTRY_KEY, entryColumns, keySlices } from '../shared/tables';
import { keyString } from '../shared/keys';
import { insertRows } from '../shared/dialect';
import type { EntryKey } from '../shared/types';
import type { StateRecord, StateRows } from '.';

/** The refs table: which entries' last payloads used which others, so that they can follow them. */
export function createStateRefs({ info, col, refInfo, knex, fromRow, pages }: StateRows) {
  /** States written before the refs table existed keep their refs in JSON only: index them once. */
  const backfillRefs = async () => {
    if (await knex()(refInfo().table).first('id')) return;
    for await (const rows of pages((q) => q.whereNotNull(col('refs'))))
      await writeRefs(
        knex(),
        rows.filter((r) => r.refs?.length)
      );
  };

  /** Replaces the refs of the given entries (none for an entry whose refs are empty). */
  const writeRefs = async (
    trx: Knex,
    records: Array<EntryKey & { refs?: StateRecord['refs'] }>
  ) => {
    const refs = refInfo();
    for (const where of keySlices(records, refs.col)) await trx(refs.table).modify(where).del();
    const rows = records.flatMap((r) =>
      (r.refs ?? []).map((ref) =>
        Object.assign(entryColumns(refs.col, r), {
          [refs.col('target')]: keyString(ref),
          [refs.col('role')]: ref.role ?? null,
        })
      )
    );
    await insertRows(trx, refs.table, rows);
  };

  // A run holds at most the batcher's 200 keys: one IN list.
  const dependants = createBatcher(async (keys: EntryKey[]) => {
    const { table } = info();
    const refs = refInfo();
    const rows = await knex()(table)
      .join(refs.table, (j: Knex.JoinClause) => {
        for (const c of ENTRY_KEY) j.andOn(`${refs.table}.${refs.col(c)}`, `${table}.${col(c)}`);
      })
      .whereIn(`${refs.table}.${refs.col('target')}`, [...new Set(keys.map(keyString))])
      .select(`${table}.*`, { __target: `${refs.table}.${refs.col('target')}` });
    const byTarget = new Map<string, StateRecord[]>();
    for (const r of rows) {
      const list = byTarget.get(r.__target) ?? [];
      // One state per dependant, even when it used the target in two roles.
      if (!list.some((s) => s.id === r.id)) list.push(fromRow(r));
      byTarget.set(r.__target, list);
    }
    return keys.map((k) => byTarget.get(keyString(k)) ?? []);
  });

  /** dependantsOf: entries whose last payload used `key` (its remote id, or its membership). */
  return { backfillRefs, writeRefs, dependantsOf: dependants.load };
}
