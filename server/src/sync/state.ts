import type { Core } from '@strapi/strapi';
import { BUSY_WINDOW_MS, createBatcher, groupBy } from './batcher';
import { ensureIndex, entryKeyColumns, OUTBOX_UID, REF_UID, STATE_UID, tableInfo } from './tables';
import { keyString, toKey } from './keys';
import type { EntryKey, SyncStatus } from './types';
import type { ResourceKind } from '../remote/types';

export interface StateRecord extends EntryKey {
  id?: number;
  resource: ResourceKind;
  remoteId: number | null;
  payloadHash: string | null;
  status: SyncStatus;
  attempts: number;
  lastError: string | null;
  lastErrorAt: Date | null;
  lastSyncedAt: Date | null;
  mediaUrl: string | null;
  members: number[] | null;
  /**
   * related entries the last payload used, with the role they played (category, pinpoint, member, list);
   * while the entry waits for some of them to reach the remote, those are marked `blocking`
   */
  refs: Array<EntryKey & { role?: string; blocking?: boolean }> | null;
  membershipErrors: unknown[] | null;
  createStartedAt: Date | null;
  createFingerprint: Record<string, unknown> | null;
  /** the documented fields of the last payload the remote accepted: what a drift check compares with */
  pushedFields?: Record<string, unknown> | null;
  /** when the state row was last written (read only) */
  updatedAt?: Date | null;
}

const jsonOut = (v: unknown) => (v == null ? null : JSON.stringify(v));
const jsonIn = (v: unknown) => {
  if (v == null) return null;
  if (typeof v === 'string') {
    try {
      return JSON.parse(v);
    } catch {
      return null;
    }
  }
  return v;
};
const dateIn = (v: unknown) => (v == null ? null : new Date(v as any));

/** Sync state rows through knex: the worker touches them on every push and needs no lifecycles. */
export const createStateStore = (strapi: Core.Strapi) => {
  const info = () => tableInfo(strapi, STATE_UID);
  const refInfo = () => tableInfo(strapi, REF_UID);
  const knex = () => strapi.db.connection;

  const ensureIndexes = async () => {
    const { table, col } = info();
    await ensureIndex(strapi, table, 'entry_uq', entryKeyColumns(col), { unique: true });
    await ensureIndex(strapi, table, 'status_idx', [col('status')]);
    const refs = refInfo();
    await ensureIndex(strapi, refs.table, 'target_idx', [refs.col('target')]);
    await ensureIndex(strapi, refs.table, 'entry_idx', entryKeyColumns(refs.col));
    await backfillRefs();
  };

  /** States written before the refs table existed keep their refs in JSON only: index them once. */
  const backfillRefs = async () => {
    const { table, col } = info();
    const refs = refInfo();
    if (await knex()(refs.table).first('id')) return;
    let after = 0;
    for (;;) {
      const rows = await knex()(table)
        .whereNotNull(col('refs'))
        .andWhere('id', '>', after)
        .orderBy('id')
        .limit(500);
      if (!rows.length) return;
      after = rows[rows.length - 1].id;
      await writeRefs(
        knex(),
        rows.map(fromRow).filter((r: StateRecord) => r.refs?.length)
      );
    }
  };

  const fromRow = (r: Record<string, any>): StateRecord => {
    const { col } = info();
    return {
      id: r.id,
      contentType: r[col('contentType')],
      documentId: r[col('entryDocumentId')],
      locale: r[col('entryLocale')] ?? '',
      resource: r[col('resource')],
      remoteId: r[col('remoteId')] == null ? null : Number(r[col('remoteId')]),
      payloadHash: r[col('payloadHash')] ?? null,
      status: r[col('status')],
      attempts: Number(r[col('attempts')] ?? 0),
      lastError: r[col('lastError')] ?? null,
      lastErrorAt: dateIn(r[col('lastErrorAt')]),
      lastSyncedAt: dateIn(r[col('lastSyncedAt')]),
      mediaUrl: r[col('mediaUrl')] ?? null,
      members: jsonIn(r[col('members')]),
      refs: jsonIn(r[col('refs')]),
      membershipErrors: jsonIn(r[col('membershipErrors')]),
      createStartedAt: dateIn(r[col('createStartedAt')]),
      createFingerprint: jsonIn(r[col('createFingerprint')]),
      pushedFields: jsonIn(r[col('pushedFields')]),
      updatedAt: dateIn(r[col('updatedAt')]),
    };
  };

  const toRow = (s: Partial<StateRecord>) => {
    const { col } = info();
    const row: Record<string, any> = {};
    const set = (k: keyof StateRecord, v: unknown) => {
      if (k in s)
        row[
          col(
            k === 'documentId' ? 'entryDocumentId' : k === 'locale' ? 'entryLocale' : (k as string)
          )
        ] = v;
    };
    set('contentType', s.contentType);
    set('documentId', s.documentId);
    set('locale', s.locale);
    set('resource', s.resource);
    set('remoteId', s.remoteId);
    set('payloadHash', s.payloadHash);
    set('status', s.status);
    set('attempts', s.attempts);
    set('lastError', s.lastError);
    set('lastErrorAt', s.lastErrorAt);
    set('lastSyncedAt', s.lastSyncedAt);
    set('mediaUrl', s.mediaUrl);
    set('members', jsonOut(s.members));
    set('membershipErrors', jsonOut(s.membershipErrors));
    set('createStartedAt', s.createStartedAt);
    set('createFingerprint', jsonOut(s.createFingerprint));
    set('pushedFields', jsonOut(s.pushedFields));
    if ('refs' in s) row[col('refs')] = jsonOut(s.refs);
    return row;
  };

  const whereKey = (key: EntryKey) => {
    const { col } = info();
    return {
      [col('contentType')]: key.contentType,
      [col('entryDocumentId')]: key.documentId,
      [col('entryLocale')]: key.locale,
    };
  };

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

  /** Replaces the refs of the given entries (none for an entry whose refs are empty). */
  const writeRefs = async (trx: any, records: Array<EntryKey & { refs?: StateRecord['refs'] }>) => {
    const refs = refInfo();
    const groups = groupBy<EntryKey>(records, (r) => `${r.contentType}|${r.locale}`);
    for (const group of groups.values()) {
      for (let i = 0; i < group.length; i += 500) {
        const slice = group.slice(i, i + 500);
        await trx(refs.table)
          .where({
            [refs.col('contentType')]: slice[0].contentType,
            [refs.col('entryLocale')]: slice[0].locale,
          })
          .whereIn(
            refs.col('entryDocumentId'),
            slice.map((k) => k.documentId)
          )
          .del();
      }
    }
    const rows = records.flatMap((r) =>
      (r.refs ?? []).map((ref) => ({
        [refs.col('contentType')]: r.contentType,
        [refs.col('entryDocumentId')]: r.documentId,
        [refs.col('entryLocale')]: r.locale,
        [refs.col('target')]: keyString(ref),
        [refs.col('role')]: ref.role ?? null,
      }))
    );
    for (let i = 0; i < rows.length; i += 100) await trx(refs.table).insert(rows.slice(i, i + 100));
  };

  type Upsert = { key: EntryKey; patch: Partial<StateRecord> & { resource: ResourceKind } };

  const writes = createBatcher(
    async (items: Upsert[]) => {
      const { table, col } = info();
      const now = new Date();
      // One statement per set of columns: the rows of one INSERT all have the same ones.
      const shapes = new Map<string, Array<Record<string, any>>>();
      const changed = new Map<string, string[]>();
      for (const { key, patch } of items) {
        const row = toRow({ ...patch, ...key });
        const insert = {
          [col('documentId')]: Math.random().toString(36).slice(2, 14) + Date.now().toString(36),
          [col('status')]: 'pending',
          [col('attempts')]: 0,
          [col('createdAt')]: now,
          ...row,
          [col('updatedAt')]: now,
        };
        const shape = Object.keys(insert).sort().join(',');
        const same = shapes.get(shape);
        if (same) same.push(insert);
        else shapes.set(shape, [insert]);
        // An existing state keeps what the patch does not name (a new one gets the defaults above).
        changed.set(shape, [...Object.keys(row), col('updatedAt')]);
      }
      const withRefs = items
        .filter((it) => 'refs' in it.patch)
        .map((it) => ({ ...it.key, refs: it.patch.refs }));
      const write = async (trx: any) => {
        for (const [shape, rows] of shapes) {
          const update = changed.get(shape)!;
          for (let i = 0; i < rows.length; i += 100) {
            await trx(table)
              .insert(rows.slice(i, i + 100))
              .onConflict(entryKeyColumns(col))
              .merge(update);
          }
        }
        if (withRefs.length) await writeRefs(trx, withRefs);
      };
      // A state and the refs that find it change together, or not at all.
      if (withRefs.length) await knex().transaction(write);
      else await write(knex());
      return items.map(() => undefined);
    },
    { keyOf: (it) => keyString(it.key), maxSize: 500, windowMs: BUSY_WINDOW_MS }
  );

  /** Insert or update the state of one entry (in one statement with the other pushes' writes of the moment). */
  const upsert = (
    key: EntryKey,
    patch: Partial<StateRecord> & { resource: ResourceKind }
  ): Promise<void> => writes.load({ key, patch }) as Promise<void>;

  const remove = async (key: EntryKey) => {
    const { table } = info();
    await knex().transaction(async (trx: any) => {
      await trx(table).where(whereKey(key)).del();
      await writeRefs(trx, [{ ...key, refs: [] }]);
    });
  };

  const dependants = createBatcher(async (keys: EntryKey[]) => {
    const { table, col } = info();
    const refs = refInfo();
    const targets = [...new Set(keys.map(keyString))];
    const byTarget = new Map<string, StateRecord[]>();
    for (let i = 0; i < targets.length; i += 500) {
      const rows = await knex()(table)
        .join(refs.table, (j: any) => {
          j.on(`${refs.table}.${refs.col('contentType')}`, `${table}.${col('contentType')}`)
            .andOn(
              `${refs.table}.${refs.col('entryDocumentId')}`,
              `${table}.${col('entryDocumentId')}`
            )
            .andOn(`${refs.table}.${refs.col('entryLocale')}`, `${table}.${col('entryLocale')}`);
        })
        .whereIn(`${refs.table}.${refs.col('target')}`, targets.slice(i, i + 500))
        .select(`${table}.*`, { __target: `${refs.table}.${refs.col('target')}` });
      for (const r of rows) {
        const list = byTarget.get(r.__target) ?? [];
        // One state per dependant, even when it used the target in two roles.
        if (!list.some((s) => s.id === r.id)) list.push(fromRow(r));
        byTarget.set(r.__target, list);
      }
    }
    return keys.map((k) => byTarget.get(keyString(k)) ?? []);
  });

  /** Entries whose last payload used `key` (its remote id, or its membership). */
  const dependantsOf = (key: EntryKey): Promise<StateRecord[]> => dependants.load(key);

  const isRemoteIdClaimed = async (resource: ResourceKind, remoteId: number) => {
    const { table, col } = info();
    const row = await knex()(table)
      .where({ [col('resource')]: resource, [col('remoteId')]: remoteId })
      .first('id');
    return Boolean(row);
  };

  const countBy = async () => {
    const { table, col } = info();
    const rows = await knex()(table)
      .select({ contentType: col('contentType'), resource: col('resource'), status: col('status') })
      .count({ n: '*' })
      .groupBy(col('contentType'), col('resource'), col('status'));
    return rows.map((r: any) => ({
      contentType: r.contentType,
      resource: r.resource,
      status: r.status as SyncStatus,
      n: Number(r.n),
    }));
  };

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
      .whereNotExists(function (this: any) {
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
    return rows.map((r: any) => r.locale ?? '');
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

  return {
    ensureIndexes,
    get,
    getMany,
    upsert,
    remove,
    dependantsOf,
    isRemoteIdClaimed,
    countBy,
    listByStatus,
    iterate,
    localesOf,
    pageByStatus,
    setStatus,
    stranded,
  };
};

export type StateStore = ReturnType<typeof createStateStore>;
