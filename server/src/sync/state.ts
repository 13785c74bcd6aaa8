import type { Core } from '@strapi/strapi';
import { ensureIndex, entryKeyColumns, OUTBOX_UID, STATE_UID, tableInfo } from './tables';
import { keyString } from './keys';
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
  /** related entries the last payload used, with the role they played (category, pinpoint, member, list) */
  refs: Array<EntryKey & { role?: string }> | null;
  membershipErrors: unknown[] | null;
  createStartedAt: Date | null;
  createFingerprint: Record<string, unknown> | null;
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
  const knex = () => strapi.db.connection;

  const ensureIndexes = async () => {
    const { table, col } = info();
    await ensureIndex(strapi, table, 'entry_uq', entryKeyColumns(col), { unique: true });
    await ensureIndex(strapi, table, 'status_idx', [col('status')]);
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
    };
  };

  const toRow = (s: Partial<StateRecord>) => {
    const { col } = info();
    const row: Record<string, any> = {};
    const set = (k: keyof StateRecord, v: unknown) => {
      if (k in s) row[col(k === 'documentId' ? 'entryDocumentId' : k === 'locale' ? 'entryLocale' : (k as string))] = v;
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
    if ('refs' in s) {
      row[col('refs')] = jsonOut(s.refs);
      row[col('refKeys')] = s.refs?.length ? s.refs.map((r) => `;${keyString(r)};`).join('') : null;
    }
    return row;
  };

  const whereKey = (key: EntryKey) => {
    const { col } = info();
    return { [col('contentType')]: key.contentType, [col('entryDocumentId')]: key.documentId, [col('entryLocale')]: key.locale };
  };

  const get = async (key: EntryKey): Promise<StateRecord | null> => {
    const { table } = info();
    const row = await knex()(table).where(whereKey(key)).first();
    return row ? fromRow(row) : null;
  };

  const getMany = async (keys: EntryKey[]): Promise<Map<string, StateRecord>> => {
    const { table, col } = info();
    const out = new Map<string, StateRecord>();
    const groups = new Map<string, EntryKey[]>();
    for (const k of keys) {
      const g = `${k.contentType}|${k.locale}`;
      groups.set(g, [...(groups.get(g) ?? []), k]);
    }
    for (const group of groups.values()) {
      for (let i = 0; i < group.length; i += 500) {
        const slice = group.slice(i, i + 500);
        const rows = await knex()(table)
          .where({ [col('contentType')]: slice[0].contentType, [col('entryLocale')]: slice[0].locale })
          .whereIn(col('entryDocumentId'), slice.map((k) => k.documentId));
        for (const r of rows) {
          const s = fromRow(r);
          out.set(keyString(s), s);
        }
      }
    }
    return out;
  };

  /** Insert or update the state of one entry. */
  const upsert = async (key: EntryKey, patch: Partial<StateRecord> & { resource: ResourceKind }) => {
    const { table, col } = info();
    const now = new Date();
    const row = toRow({ ...patch, ...key });
    const insert = {
      [col('documentId')]: Math.random().toString(36).slice(2, 14) + Date.now().toString(36),
      [col('status')]: 'pending',
      [col('attempts')]: 0,
      [col('createdAt')]: now,
      ...row,
      [col('updatedAt')]: now,
    };
    const { [col('documentId')]: _ignored, [col('createdAt')]: _c, ...update } = insert;
    await knex()(table)
      .insert(insert)
      .onConflict(entryKeyColumns(col))
      .merge(update);
  };

  const remove = async (key: EntryKey) => {
    const { table } = info();
    await knex()(table).where(whereKey(key)).del();
  };

  /** Entries whose last payload used `key` (its remote id, or its membership). */
  const dependantsOf = async (key: EntryKey): Promise<StateRecord[]> => {
    const { table, col } = info();
    const rows = await knex()(table).where(col('refKeys'), 'like', `%;${keyString(key)};%`);
    return rows.map(fromRow);
  };

  const isRemoteIdClaimed = async (resource: ResourceKind, remoteId: number) => {
    const { table, col } = info();
    const row = await knex()(table).where({ [col('resource')]: resource, [col('remoteId')]: remoteId }).first('id');
    return Boolean(row);
  };

  const countBy = async () => {
    const { table, col } = info();
    const rows = await knex()(table)
      .select({ contentType: col('contentType'), resource: col('resource'), status: col('status') })
      .count({ n: '*' })
      .groupBy(col('contentType'), col('resource'), col('status'));
    return rows.map((r: any) => ({ contentType: r.contentType, resource: r.resource, status: r.status as SyncStatus, n: Number(r.n) }));
  };

  /** Pending entries with nothing queued for them, untouched for `olderThanMs`: nothing would ever push them. */
  const stranded = async (olderThanMs: number, limit: number): Promise<StateRecord[]> => {
    const { table, col } = info();
    const outbox = tableInfo(strapi, OUTBOX_UID);
    const rows = await knex()(table)
      .where(col('status'), 'pending')
      .andWhere(col('updatedAt'), '<', new Date(Date.now() - olderThanMs))
      .whereNotExists(function (this: any) {
        this.select(knex().raw('1'))
          .from(outbox.table)
          .whereRaw('??.?? = ??.??', [outbox.table, outbox.col('contentType'), table, col('contentType')])
          .andWhereRaw('??.?? = ??.??', [outbox.table, outbox.col('entryDocumentId'), table, col('entryDocumentId')])
          .andWhereRaw('??.?? = ??.??', [outbox.table, outbox.col('entryLocale'), table, col('entryLocale')]);
      })
      .limit(limit);
    return rows.map(fromRow);
  };

  const listByStatus = async (status: SyncStatus, limit: number) => {
    const { table, col } = info();
    const rows = await knex()(table).where(col('status'), status).orderBy(col('updatedAt'), 'desc').limit(limit);
    return rows.map(fromRow);
  };

  /** Pages through every state of one content type, `size` at a time, by id (from `after`). */
  async function* iterate(contentType: string, size = 500, after = 0): AsyncGenerator<StateRecord[]> {
    const { table, col } = info();
    for (;;) {
      const rows = await knex()(table).where(col('contentType'), contentType).andWhere('id', '>', after).orderBy('id').limit(size);
      if (!rows.length) return;
      after = rows[rows.length - 1].id;
      yield rows.map(fromRow);
    }
  }

  /** Locales of one document that have a state. */
  const localesOf = async (contentType: string, documentId: string): Promise<string[]> => {
    const { table, col } = info();
    const rows = await knex()(table).where({ [col('contentType')]: contentType, [col('entryDocumentId')]: documentId }).select({ locale: col('entryLocale') });
    return rows.map((r: any) => r.locale ?? '');
  };

  /** States with `status`, `size` at a time by id after `after` (a cursor that later status changes cannot upset). */
  const pageByStatus = async (status: SyncStatus, after: number, size: number): Promise<StateRecord[]> => {
    const { table, col } = info();
    const rows = await knex()(table).where(col('status'), status).andWhere('id', '>', after).orderBy('id').limit(size);
    return rows.map(fromRow);
  };

  /** Sets status (and resets attempts) of the given state rows in one statement. */
  const setStatus = async (ids: number[], status: SyncStatus, from?: SyncStatus) => {
    if (!ids.length) return 0;
    const { table, col } = info();
    const q = knex()(table).whereIn('id', ids);
    if (from) q.andWhere(col('status'), from);
    return q.update({ [col('status')]: status, [col('attempts')]: 0, [col('updatedAt')]: new Date() });
  };

  return {
    ensureIndexes, get, getMany, upsert, remove, dependantsOf, isRemoteIdClaimed, countBy, listByStatus, iterate,
    localesOf, pageByStatus, setStatus, stranded,
  };
};

export type StateStore = ReturnType<typeof createStateStore>;
