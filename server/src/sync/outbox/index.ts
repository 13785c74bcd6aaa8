/**
 * The outbox: editors' intents, durable. The document middleware (middleware.ts) sees a write and
 * hands its keys to the intent buffer (intents.ts), which upserts one row per (content type,
 * documentId, locale), coalescing later changes into it; the worker claims due rows from here.
 * What a crash lost before the buffer wrote it is queued again at the next boot (catchup.ts).
 */
import type { Core } from '@strapi/strapi';
import type { Knex } from 'knex';
import { BUSY_WRITES, createBatcher } from '../shared/batcher';
import { pluginConfig } from '../shared/config';
import { insertRows, proposed, type OnConflict } from '../shared/dialect';
import { newLeaseOwner } from '../shared/lease';
import {
  ensureIndex,
  ENTRY_KEY,
  entryColumns,
  newRow,
  OUTBOX_UID,
  tableInfo,
} from '../shared/tables';
import type { Row } from '../shared/strapi';
import type { EntryKey } from '../shared/types';
import type { ResourceKind } from '../../remote/types';

/** Dependencies first: a category before the pinpoints using it, a pinpoint before its events and lists. */
export const PRIORITY: Record<ResourceKind, number> = {
  category: 0,
  pinpoint: 1,
  event: 2,
  list: 3,
};

export interface OutboxRow extends EntryKey {
  id: number;
  generation: number;
  attempts: number;
  resyncJob: string | null;
}

export interface EnqueueItem extends EntryKey {
  /** undefined for a content type that is not mapped but that mapped entries read through a relation */
  resource?: ResourceKind;
  reason: string;
  resyncJob?: string | null;
  /** An editor's change: due once the entry is quiet for `settleMs`, never past `maxWaitMs` after the burst began. */
  settle?: { settleMs: number; maxWaitMs: number };
  /** with `settle`: a lone change, due at once, that opens the settle window for the ones after it */
  leading?: boolean;
}

export const createOutbox = (strapi: Core.Strapi) => {
  const info = () => tableInfo(strapi, OUTBOX_UID);
  const col = (attr: string) => info().col(attr);
  const knex = () => strapi.db.connection;
  const outbox = () => knex()(info().table);
  const owner = newLeaseOwner();
  const held = (ids: number[]) => outbox().whereIn('id', ids).andWhere(col('leaseOwner'), owner);
  const unleased = (extra: Record<string, unknown> = {}) =>
    Object.assign({ [col('leaseOwner')]: null, [col('leaseUntil')]: null }, extra);
  const unheld = (now: number) => (w: Knex.QueryBuilder) =>
    w.whereNull(col('leaseUntil')).orWhere(col('leaseUntil'), '<', now);

  const ensureIndexes = async () => {
    const { table } = info();
    // Coalescing relies on one row per entry, even when two instances enqueue at the same moment.
    await ensureIndex(strapi, table, 'entry_uq', ENTRY_KEY.map(col), { unique: true });
    // In the claim's own order, so that it stops at its limit instead of sorting every due row.
    await ensureIndex(strapi, table, 'claim_idx', [col('priority'), col('dueAt'), 'id']);
  };

  /**
   * One row per entry: a later change only reschedules it and bumps its generation, so a push in
   * flight knows it must run once more. Editors' changes (`settle`) move the row later, up to the
   * end of its settle window; other work (dependencies, resync, retries) moves it sooner.
   */
  const enqueue = async (items: EnqueueItem[]) => {
    const now = Date.now();
    const at = new Date(now);
    for (const settle of [false, true]) {
      const rows = items
        .filter((it) => Boolean(it.settle) === settle)
        .map((it) =>
          newRow(col, at, entryColumns(col, it), {
            [col('operation')]: 'upsert',
            [col('reason')]: it.reason,
            [col('dueAt')]: now + (it.settle && !it.leading ? it.settle.settleMs : 0),
            [col('settleBy')]:
              now + (it.settle ? Math.max(it.settle.maxWaitMs, it.settle.settleMs) : 0),
            // Types only read through relations go first: they only re-queue others.
            [col('priority')]: it.resource ? PRIORITY[it.resource] : -1,
            [col('generation')]: 0,
            [col('attempts')]: 0,
            [col('resyncJob')]: it.resyncJob ?? null,
          })
        );
      await insertRows(knex(), info().table, rows, conflictOf(settle));
    }
  };

  /** What a new row does to the one of its entry already waiting. */
  const conflictOf = (settle: boolean): OnConflict => {
    const { table } = info();
    const k = knex();
    const mine = (column: string) => k.raw('??.??', [table, col(column)]);
    const their = (column: string) => proposed(strapi, col(column));
    const due = { mine: mine('dueAt'), their: their('dueAt'), by: mine('settleBy') };
    return {
      on: ENTRY_KEY.map(col),
      // A resync tag is kept until that row is done.
      set: {
        [col('reason')]: their('reason'),
        [col('dueAt')]: settle
          ? // Later (the burst goes on), but not past the end of the row's settle window.
            k.raw('CASE WHEN :by IS NULL OR :their < :by THEN :their ELSE :by END', due)
          : // Sooner wins.
            k.raw('CASE WHEN :their < :mine THEN :their ELSE :mine END', due),
        [col('generation')]: k.raw('? + 1', [mine('generation')]),
        [col('resyncJob')]: k.raw('COALESCE(?, ?)', [their('resyncJob'), mine('resyncJob')]),
        [col('updatedAt')]: their('updatedAt'),
      },
    };
  };

  const toRow = (r: Row): OutboxRow => ({
    id: r.id as number,
    contentType: r[col('contentType')] as string,
    documentId: r[col('entryDocumentId')] as string,
    locale: (r[col('entryLocale')] as string | null) ?? '',
    generation: Number(r[col('generation')] ?? 0),
    attempts: Number(r[col('attempts')] ?? 0),
    resyncJob: (r[col('resyncJob')] as string | null) ?? null,
  });

  /**
   * Leases up to `limit` due rows. The UPDATE repeats the conditions: PostgreSQL re-checks them on
   * rows another instance just leased.
   */
  const claim = async (limit: number, leaseMs: number): Promise<OutboxRow[]> => {
    const claimed: OutboxRow[] = [];
    // Another instance may take some candidates first: look again for the rest, a few times.
    for (let round = 0; round < 3 && claimed.length < limit; round++) {
      const now = Date.now();
      const until = now + leaseMs;
      const free = (q: Knex.QueryBuilder) => q.where(col('dueAt'), '<=', now).andWhere(unheld(now));
      // The candidates are read first, so the rows returned are only this claim's, even when an
      // earlier claim or renewal of this instance wrote the same lease end in the same millisecond.
      const ids = (
        await outbox()
          .select('id')
          .modify(free)
          .orderBy([col('priority'), col('dueAt'), 'id'])
          .limit(limit - claimed.length)
      ).map((r: { id: number }) => r.id);
      if (!ids.length) break;
      const taken = await outbox()
        .whereIn('id', ids)
        .modify(free)
        .update({ [col('leaseOwner')]: owner, [col('leaseUntil')]: until });
      const rows = await held(ids).andWhere(col('leaseUntil'), until);
      claimed.push(...rows.map(toRow));
      if (taken === ids.length) break;
    }
    return claimed;
  };

  /** The rows that finish at the same moment leave in one statement (three when some changed meanwhile). */
  const completions = createBatcher(
    async (rows: OutboxRow[]) => {
      const ids = rows.map((row) => row.id);
      // Each row only if its generation is still the one pushed (a CASE keeps the lookup on the primary key).
      // (Each branch compares to a typed column, so PostgreSQL knows the type of every parameter.)
      const cases = rows.map(() => 'WHEN ? THEN ?? = ?').join(' ');
      await held(ids)
        .andWhereRaw(`CASE ?? ${cases} END`, [
          'id',
          ...rows.flatMap((row) => [row.id, col('generation'), row.generation]),
        ])
        .del();
      // What is left changed while it was pushed: it runs again once its changes settle.
      const left = (await held(ids).select('id')).map((r: { id: number | string }) => Number(r.id));
      const settleBy = Date.now() + pluginConfig(strapi).coalesce.maxWaitMs;
      if (left.length)
        await held(left).update(unleased({ [col('attempts')]: 0, [col('settleBy')]: settleBy }));
      return rows.map((row) => !left.includes(row.id));
    },
    { keyOf: (row) => String(row.id), ...BUSY_WRITES }
  );

  return {
    owner,
    ensureIndexes,
    enqueue,
    claim,
    /**
     * Done: the row goes (true), unless the entry changed while it was pushed; then it runs again
     * once its changes settle, in a new settle window.
     */
    complete: (row: OutboxRow): Promise<boolean> => completions.load(row),
    /** Back to waiting. `countAttempt` false when the entry is not at fault (the remote asked to slow down). */
    retryLater: async (row: OutboxRow, delayMs: number, countAttempt = true) => {
      const attempts = row.attempts + (countAttempt ? 1 : 0);
      await held([row.id]).update(
        unleased({ [col('dueAt')]: Date.now() + delayMs, [col('attempts')]: attempts })
      );
    },
    /** Gives back rows this instance claimed but will not push (it is stopping): others may take them at once. */
    release: async (ids: number[]) => {
      if (ids.length) await held(ids).update(unleased());
    },
    /** Whether this instance still holds the row's lease (no end of a push cleared it since its claim). */
    holds: async (id: number) => Boolean(await held([id]).first('id')),
    /** Keeps the lease of rows still being pushed, so a long 429 pause does not hand them to another instance. */
    renew: async (ids: number[], leaseMs: number) => {
      if (ids.length) await held(ids).update({ [col('leaseUntil')]: Date.now() + leaseMs });
    },
    depth: async () => {
      const [{ total }] = await outbox().count({ total: '*' });
      const [{ due }] = await outbox().where(col('dueAt'), '<=', Date.now()).count({ due: '*' });
      return { depth: Number(total), due: Number(due) };
    },
    nextDueAt: async (): Promise<number | null> => {
      const row = await outbox()
        .where(unheld(Date.now()))
        .min({ next: col('dueAt') })
        .first();
      return row?.next == null ? null : Number(row.next);
    },
    isQueued: async (key: EntryKey) =>
      Boolean(await outbox().where(entryColumns(col, key)).first('id')),
    countForJob: async (job: string) => {
      const [{ n }] = await outbox().where(col('resyncJob'), job).count({ n: '*' });
      return Number(n);
    },
  };
};

export type Outbox = ReturnType<typeof createOutbox>;
