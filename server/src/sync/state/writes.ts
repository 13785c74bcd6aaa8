import type { Knex } from 'knex';
import { BUSY_WRITES, createBatcher } from '../shared/batcher';
import { insertRows } from '../shared/dialect';
import { entryKeyColumns, newRow } from '../shared/tables';
import { keyString } from '../shared/keys';
import type { EntryKey, SyncStatus } from '../shared/types';
import type { ResourceKind } from '../../remote/types';
import type { StateRecord, StateRows } from './record';
import type { StateRefs } from './refs';
import { extend } from '../../utils/objects';

export function createStateWrites(
  { info, knex, toRow, whereKey }: StateRows,
  { writeRefs }: Pick<StateRefs, 'writeRefs'>
) {
  type Upsert = { key: EntryKey; patch: Partial<StateRecord> & { resource: ResourceKind } };

  const writeItems = async (items: Upsert[]) => {
    const { table, col } = info();
    const now = new Date();
    // One statement per set of columns: the rows of one INSERT all have the same ones.
    const shapes = new Map<string, Array<Record<string, unknown>>>();
    const changed = new Map<string, string[]>();
    for (const { key, patch } of items) {
      const row = toRow(extend(patch, key));
      const insert = newRow(col, now, { [col('status')]: 'pending', [col('attempts')]: 0 }, row);
      // toRow names its columns in one order, and the others are always there.
      const shape = Object.keys(row).join(',');
      const same = shapes.get(shape);
      if (same) same.push(insert);
      else {
        shapes.set(shape, [insert]);
        // An existing state keeps what the patch does not name (a new one gets the defaults above).
        changed.set(shape, [...Object.keys(row), col('updatedAt')]);
      }
    }
    const withRefs = items
      .filter((it) => 'refs' in it.patch)
      .map((it) => extend(it.key, { refs: it.patch.refs }));
    const write = async (trx: Knex) => {
      for (const [shape, rows] of shapes) {
        const update = changed.get(shape)!;
        await insertRows(trx, table, rows, { on: entryKeyColumns(col), set: update });
      }
      if (withRefs.length) await writeRefs(trx, withRefs);
    };
    // A state and the refs that find it change together, or not at all.
    if (withRefs.length) await knex().transaction(write);
    else await write(knex());
    return items.map(() => undefined);
  };
  const writes = createBatcher(writeItems, {
    keyOf: (it) => keyString(it.key),
    maxSize: 500,
    ...BUSY_WRITES,
  });

  /** Insert or update the state of one entry (in one statement with the other pushes' writes of the moment). */
  const upsert = (
    key: EntryKey,
    patch: Partial<StateRecord> & { resource: ResourceKind }
  ): Promise<void> => writes.load({ key, patch }) as Promise<void>;

  /**
   * The same write at once, in a statement of its own: for a caller that writes one state after
   * another (the import), which the gathering window would make wait at each of them.
   */
  const upsertNow = async (
    key: EntryKey,
    patch: Partial<StateRecord> & { resource: ResourceKind }
  ): Promise<void> => {
    await writeItems([{ key, patch }]);
  };

  const remove = async (key: EntryKey) => {
    const { table } = info();
    await knex().transaction(async (trx) => {
      await trx(table).where(whereKey(key)).del();
      await writeRefs(trx, [extend(key, { refs: [] })]);
    });
  };

  /** Sets status (and resets attempts) of the given state rows in one statement. */
  const setStatus = async (ids: number[], status: SyncStatus, from?: SyncStatus) => {
    if (!ids.length) return 0;
    const { table, col } = info();
    const q = knex()(table).whereIn('id', ids);
    if (from) q.andWhere(col('status'), from);
    return q.update({
      [col('status')]: status,
      [col('attempts')]: 0,
      [col('updatedAt')]: new Date(),
    });
  };

  return { upsert, upsertNow, remove, setStatus };
}
