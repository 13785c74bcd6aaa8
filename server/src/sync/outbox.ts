import { randomUUID } from 'node:crypto';
import type { Core } from '@strapi/strapi';
import { OUTBOX_UID, tableInfo } from './tables';
import type { EntryKey } from './types';
import type { ResourceKind } from '../remote/types';

/** Dependencies first: a category before the pinpoints using it, a pinpoint before its events and lists. */
export const PRIORITY: Record<ResourceKind, number> = { category: 0, pinpoint: 1, event: 2, list: 3 };

export interface OutboxRow extends EntryKey {
  id: number;
  operation: 'upsert' | 'delete';
  reason: string | null;
  generation: number;
  attempts: number;
  dueAt: number;
  resyncJob: string | null;
}

export interface EnqueueItem extends EntryKey {
  resource: ResourceKind;
  reason: string;
  operation?: 'upsert' | 'delete';
  resyncJob?: string | null;
  /** ms from now; 0 = due at once */
  delayMs?: number;
}

export const createOutbox = (strapi: Core.Strapi) => {
  const info = () => tableInfo(strapi, OUTBOX_UID);
  const knex = () => strapi.db.connection;
  const owner = `${process.pid}-${randomUUID().slice(0, 8)}`;

  const ensureIndexes = async () => {
    const { table, col } = info();
    const cols = [col('contentType'), col('entryDocumentId'), col('entryLocale')];
    // Coalescing relies on one row per entry, even when two instances enqueue at the same moment.
    await knex().raw(`CREATE UNIQUE INDEX IF NOT EXISTS ?? ON ?? (??, ??, ??)`, [`${table}_entry_uq`, table, ...cols]);
    await knex().raw(`CREATE INDEX IF NOT EXISTS ?? ON ?? (??, ??)`, [`${table}_due_idx`, table, col('dueAt'), col('priority')]);
  };

  /**
   * One row per entry: a later change of an entry already waiting only moves it forward
   * and bumps its generation, so a push in flight knows it must run once more.
   */
  const enqueue = async (items: EnqueueItem[]) => {
    if (!items.length) return;
    const { table, col } = info();
    const now = Date.now();
    const rows = items.map((it) => ({
      [col('documentId')]: randomUUID().replace(/-/g, '').slice(0, 24),
      [col('contentType')]: it.contentType,
      [col('entryDocumentId')]: it.documentId,
      [col('entryLocale')]: it.locale,
      [col('operation')]: it.operation ?? 'upsert',
      [col('reason')]: it.reason,
      [col('dueAt')]: now + (it.delayMs ?? 0),
      [col('priority')]: PRIORITY[it.resource],
      [col('generation')]: 0,
      [col('attempts')]: 0,
      [col('resyncJob')]: it.resyncJob ?? null,
      [col('createdAt')]: new Date(now),
      [col('updatedAt')]: new Date(now),
    }));
    const k = knex();
    const dueCol = col('dueAt');
    // A sooner due time wins; a resync tag is kept until that row is done.
    const merge: Record<string, any> = {
      [col('operation')]: k.raw('excluded.??', [col('operation')]),
      [col('reason')]: k.raw('excluded.??', [col('reason')]),
      [dueCol]: k.raw(`CASE WHEN excluded.?? < ??.?? THEN excluded.?? ELSE ??.?? END`, [dueCol, table, dueCol, dueCol, table, dueCol]),
      [col('generation')]: k.raw('??.?? + 1', [table, col('generation')]),
      [col('resyncJob')]: k.raw('COALESCE(excluded.??, ??.??)', [col('resyncJob'), table, col('resyncJob')]),
      [col('updatedAt')]: k.raw('excluded.??', [col('updatedAt')]),
    };
    for (let i = 0; i < rows.length; i += 200) {
      await k(table)
        .insert(rows.slice(i, i + 200))
        .onConflict([col('contentType'), col('entryDocumentId'), col('entryLocale')])
        .merge(merge);
    }
  };

  const toRow = (r: Record<string, any>): OutboxRow => {
    const { col } = info();
    return {
      id: r.id,
      contentType: r[col('contentType')],
      documentId: r[col('entryDocumentId')],
      locale: r[col('entryLocale')] ?? '',
      operation: r[col('operation')],
      reason: r[col('reason')],
      generation: Number(r[col('generation')] ?? 0),
      attempts: Number(r[col('attempts')] ?? 0),
      dueAt: Number(r[col('dueAt')]),
      resyncJob: r[col('resyncJob')] ?? null,
    };
  };

  /**
   * Lease up to `limit` due rows to this instance. The lease conditions are repeated in the
   * outer WHERE so that PostgreSQL re-checks them on rows another instance just leased.
   */
  const claim = async (limit: number, leaseMs: number): Promise<OutboxRow[]> => {
    const { table, col } = info();
    const now = Date.now();
    const until = now + leaseMs;
    const k = knex();
    const free = (q: any) =>
      q.where(col('dueAt'), '<=', now).andWhere((w: any) => w.whereNull(col('leaseUntil')).orWhere(col('leaseUntil'), '<', now));
    const ids = k(table).select('id').modify(free).orderBy([col('priority'), col('dueAt'), 'id']).limit(limit);
    await k(table)
      .whereIn('id', ids)
      .modify(free)
      .update({ [col('leaseOwner')]: owner, [col('leaseUntil')]: until });
    const rows = await k(table).where(col('leaseOwner'), owner).andWhere(col('leaseUntil'), until);
    return rows.map(toRow);
  };

  /** Done: the row goes, unless the entry changed while it was pushed; then it runs again at once. */
  const complete = async (row: OutboxRow) => {
    const { table, col } = info();
    const k = knex();
    const deleted = await k(table).where({ id: row.id, [col('generation')]: row.generation, [col('leaseOwner')]: owner }).del();
    if (!deleted) {
      await k(table)
        .where({ id: row.id, [col('leaseOwner')]: owner })
        .update({ [col('leaseOwner')]: null, [col('leaseUntil')]: null, [col('attempts')]: 0 });
    }
  };

  const retryLater = async (row: OutboxRow, delayMs: number) => {
    const { table, col } = info();
    await knex()(table)
      .where({ id: row.id, [col('leaseOwner')]: owner })
      .update({
        [col('leaseOwner')]: null,
        [col('leaseUntil')]: null,
        [col('dueAt')]: Date.now() + delayMs,
        [col('attempts')]: row.attempts + 1,
      });
  };

  /** Keeps the lease of rows still being pushed, so a long 429 pause does not hand them to another instance. */
  const renew = async (ids: number[], leaseMs: number) => {
    if (!ids.length) return;
    const { table, col } = info();
    await knex()(table).whereIn('id', ids).andWhere(col('leaseOwner'), owner).update({ [col('leaseUntil')]: Date.now() + leaseMs });
  };

  const depth = async () => {
    const { table, col } = info();
    const now = Date.now();
    const [{ total }] = await knex()(table).count({ total: '*' });
    const [{ due }] = await knex()(table).where(col('dueAt'), '<=', now).count({ due: '*' });
    return { depth: Number(total), due: Number(due) };
  };

  const nextDueAt = async (): Promise<number | null> => {
    const { table, col } = info();
    const row = await knex()(table).min({ next: col('dueAt') }).first();
    return row?.next == null ? null : Number(row.next);
  };

  const isQueued = async (key: EntryKey) => {
    const { table, col } = info();
    const row = await knex()(table)
      .where({ [col('contentType')]: key.contentType, [col('entryDocumentId')]: key.documentId, [col('entryLocale')]: key.locale })
      .first('id');
    return Boolean(row);
  };

  const countForJob = async (job: string) => {
    const { table, col } = info();
    const [{ n }] = await knex()(table).where(col('resyncJob'), job).count({ n: '*' });
    return Number(n);
  };

  return { owner, ensureIndexes, enqueue, claim, complete, retryLater, renew, depth, nextDueAt, isQueued, countForJob };
};

export type Outbox = ReturnType<typeof createOutbox>;
