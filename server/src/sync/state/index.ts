/**
 * Sync state: per (content type, documentId, locale) the remote id, payload hash, status,
 * attempts and last error, and the references a payload used (for dependants). Rows go through
 * knex: the worker touches them on every push and needs no lifecycles.
 */
import type { Core } from '@strapi/strapi';
import type { Knex } from 'knex';
import { BUSY_WRITES, createBatcher, groupBy } from '../shared/batcher';
import { insertRows } from '../shared/dialect';
import { keyString } from '../shared/keys';
import {
  ensureIndex,
  ENTRY_KEY,
  entryColumns,
  newRow,
  REF_UID,
  STATE_UID,
  tableInfo,
} from '../shared/tables';
import type { EntryKey, EntryState } from '../shared/types';
import type { Fingerprint } from '../push/recovery';
import { extend } from '../../utils/objects';
import { createStateReads } from './reads';
import { createStateRefs } from './refs';

/** A state row as the plugin reads it: the entry's answer (EntryState) with dates, and what pushes keep. */
export interface StateRecord extends Omit<
  EntryState,
  'lastErrorAt' | 'lastSyncedAt' | 'queued' | 'viewUrl'
> {
  id?: number;
  payloadHash: string | null;
  lastErrorAt: Date | null;
  lastSyncedAt: Date | null;
  members: number[] | null;
  /**
   * related entries the last payload used, with the role they played (category, pinpoint, member, list);
   * while the entry waits for some of them to reach the remote, those are marked `blocking`
   */
  refs: Array<EntryKey & { role?: string; blocking?: boolean }> | null;
  createStartedAt: Date | null;
  createFingerprint: Fingerprint | null;
  /** the documented fields of the last payload the remote accepted: what a drift check compares with */
  pushedFields?: Record<string, unknown> | null;
  /** when the state row was last written (read only) */
  updatedAt?: Date | null;
}

/** A JSON column written as its text: read back as the type it was written as. */
const jsonIn = (v: unknown) => {
  if (typeof v !== 'string') return v ?? null; // PostgreSQL's jsonb comes parsed
  try {
    return JSON.parse(v);
  } catch {
    return null;
  }
};
const dateIn = (v: unknown) => (v == null ? null : new Date(v as string | number | Date));
const asIs = (v: unknown) => v ?? null;

/** The fields a state row holds and how each is read, in the order every write names them (one statement per shape). */
const FIELDS = {
  contentType: asIs,
  documentId: asIs,
  locale: (v: unknown) => v ?? '',
  resource: asIs,
  remoteId: (v: unknown) => (v == null ? null : Number(v)),
  payloadHash: asIs,
  status: asIs,
  attempts: (v: unknown) => Number(v ?? 0),
  lastError: asIs,
  lastErrorAt: dateIn,
  lastSyncedAt: dateIn,
  mediaUrl: asIs,
  members: jsonIn,
  createStartedAt: dateIn,
  createFingerprint: jsonIn,
  pushedFields: jsonIn,
  refs: jsonIn,
} satisfies Partial<Record<keyof StateRecord, (v: unknown) => unknown>>;
const READERS = Object.entries({ ...FIELDS, updatedAt: dateIn });
const WRITERS = Object.entries(FIELDS) as Array<[keyof StateRecord, unknown]>;
const COLUMN: Partial<Record<keyof StateRecord, string>> = {
  documentId: 'entryDocumentId',
  locale: 'entryLocale',
};

type Picker = (q: Knex.QueryBuilder) => unknown;

/** The state table as records: names of tables and columns as Strapi made them, rows in and out. */
function createStateRows(strapi: Core.Strapi) {
  const info = () => tableInfo(strapi, STATE_UID);
  const col = (attr: string) => info().col(attr);
  const knex = (): Core.Strapi['db']['connection'] => strapi.db.connection;
  const states = () => knex()(info().table);

  const fromRow = (r: Record<string, unknown>): StateRecord => {
    const record: Record<string, unknown> = { id: r.id };
    for (const [k, read] of READERS) record[k] = read(r[col(COLUMN[k as keyof StateRecord] ?? k)]);
    return record as unknown as StateRecord;
  };

  /** The columns of the fields `s` names (and only those). */
  const toRow = (s: Partial<StateRecord>) => {
    const row: Record<string, unknown> = {};
    for (const [k, read] of WRITERS) {
      if (!(k in s)) continue;
      row[col(COLUMN[k] ?? k)] =
        read === jsonIn && s[k] != null ? JSON.stringify(s[k]) : (s[k] ?? null);
    }
    return row;
  };

  /** States the query picks, 500 at a time by id from `after` (a cursor later changes cannot upset). */
  const page = async (pick: Picker, after: number): Promise<StateRecord[]> => {
    const rows = await states().modify(pick).andWhere('id', '>', after).orderBy('id').limit(500);
    return rows.map(fromRow);
  };
  async function* pages(pick: Picker, after = 0) {
    for (;;) {
      const rows = await page(pick, after);
      if (!rows.length) return;
      after = rows[rows.length - 1].id as number;
      yield rows;
    }
  }

  const refInfo = () => tableInfo(strapi, REF_UID);
  return { strapi, info, col, refInfo, knex, states, fromRow, toRow, page, pages };
}

export type StateRows = ReturnType<typeof createStateRows>;
/** A write of one state: the fields it names (and the resource, which every state has). */
export type StatePatch = Partial<StateRecord> & Pick<StateRecord, 'resource'>;

export const createStateStore = (strapi: Core.Strapi) => {
  const rows = createStateRows(strapi);
  const { info, col, refInfo, knex, states, toRow } = rows;
  const { backfillRefs, writeRefs, dependantsOf } = createStateRefs(rows);

  const ensureIndexes = async () => {
    const { table } = info();
    await ensureIndex(strapi, table, 'entry_uq', ENTRY_KEY.map(col), { unique: true });
    await ensureIndex(strapi, table, 'status_idx', [col('status')]);
    // Who holds a remote object (import, link, the inventory's unowned count): without it each
    // look-up scans every state, and an import of 100,000 objects made 100,000 such scans.
    await ensureIndex(strapi, table, 'remote_idx', [col('resource'), col('remoteId')]);
    const refs = refInfo();
    await ensureIndex(strapi, refs.table, 'target_idx', [refs.col('target')]);
    await ensureIndex(strapi, refs.table, 'entry_idx', ENTRY_KEY.map(refs.col));
    await backfillRefs();
  };

  const writeItems = async (items: Array<{ key: EntryKey; patch: StatePatch }>) => {
    const now = new Date();
    const defaults = { [col('status')]: 'pending', [col('attempts')]: 0 };
    // One statement per set of columns (the rows of one INSERT all have the same ones): an existing
    // state keeps what the patch does not name, a new one gets the defaults.
    const shapes = groupBy(
      items.map(({ key, patch }) => toRow(extend(patch, key))),
      (row) => Object.keys(row).join(',')
    );
    const withRefs = items
      .filter((it) => 'refs' in it.patch)
      .map((it) => extend(it.key, { refs: it.patch.refs }));
    const write = async (trx: Knex) => {
      for (const [shape, rows] of shapes) {
        const set = [...shape.split(','), col('updatedAt')];
        const inserts = rows.map((row) => newRow(col, now, defaults, row));
        await insertRows(trx, info().table, inserts, { on: ENTRY_KEY.map(col), set });
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

  return {
    ensureIndexes,
    ...createStateReads(rows),
    dependantsOf,
    /** Insert or update the state of one entry (in one statement with the other pushes' writes of the moment). */
    upsert: (key: EntryKey, patch: StatePatch): Promise<void> => writes.load({ key, patch }),
    /** The same at once, for a caller that writes one state after another (the import). */
    upsertNow: async (key: EntryKey, patch: StatePatch) => {
      await writeItems([{ key, patch }]);
    },
    remove: async (key: EntryKey) => {
      await knex().transaction(async (trx) => {
        await trx(info().table).where(entryColumns(col, key)).del();
        await writeRefs(trx, [extend(key, { refs: [] })]);
      });
    },
    /** The given states that still failed back to pending, attempts reset, in one statement. */
    failedToPending: (ids: number[]) =>
      states()
        .whereIn('id', ids)
        .andWhere(col('status'), 'failed')
        .update({
          [col('status')]: 'pending',
          [col('attempts')]: 0,
          [col('updatedAt')]: new Date(),
        }),
  };
};

export type StateStore = ReturnType<typeof createStateStore>;
