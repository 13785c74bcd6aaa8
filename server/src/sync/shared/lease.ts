import type { Core } from '@strapi/strapi';
import { hostname } from 'node:os';
import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { ensureIndex, LEASE_UID, newRow, tableInfo } from './tables';

/**
 * The hold of a job that `keep()` renews three times a hold: a killed holder's job is taken over
 * seconds after, and a live one is never overtaken.
 */
export const KEPT_MS = 6_000;

/** Who holds a lease: one per Strapi instance (two apps in one process are two owners). */
export const newLeaseOwner = () => `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;

/**
 * A job that one instance only may run when several share the database: a named row of the
 * lease table, claimed by one UPDATE whose WHERE only the first instance can match.
 */
export function createLease(strapi: Core.Strapi, name: string, owner = newLeaseOwner()) {
  const info = () => tableInfo(strapi, LEASE_UID);
  const col = (attr: string) => info().col(attr);
  const row = () => strapi.db.connection(info().table).where(col('name'), name);

  /** Moves the row to `slot` when `free` holds; true for the one instance that did. */
  const take = async (free: (q: Knex.QueryBuilder) => unknown, slot: number) => {
    const n = await row()
      .andWhere(free)
      .update({ [col('slot')]: slot, [col('owner')]: owner, [col('updatedAt')]: new Date() });
    return Number(n) === 1;
  };

  /**
   * Holds the job for `ms` unless another instance holds it now. A holder that dies lets it go
   * when the time runs out; this owner may take it again at any time.
   */
  const hold = (ms: number) => {
    const now = Date.now();
    return take(
      (q) => q.whereNull(col('slot')).orWhere(col('slot'), '<', now).orWhere(col('owner'), owner),
      now + ms
    );
  };

  let ensured: Promise<void> | undefined;
  let retry: NodeJS.Timeout | undefined;

  return {
    owner,
    /** Makes the job's row (and the table's index) once per instance, not at each start of a job. */
    ensure: () =>
      (ensured ??= (async () => {
        const { table } = info();
        await ensureIndex(strapi, table, 'name_uq', [col('name')], { unique: true });
        await strapi.db
          .connection(table)
          .insert(newRow(col, new Date(), { [col('name')]: name, [col('slot')]: 0 }))
          .onConflict([col('name')])
          .ignore();
      })().catch((err) => {
        ensured = undefined;
        throw err;
      })),
    /** True for the one instance that moves the row to `slot` first (a run of a schedule, in ms). */
    claimSlot: (slot: number) =>
      take((q) => q.whereNull(col('slot')).orWhere(col('slot'), '<', slot), slot),
    hold,
    /**
     * Renews a hold every ms/3 while a job runs, apart from its work, so that a slow step cannot
     * outlast it. `lost()`: a renewal found another instance holding it. `end()` stops once no
     * renewal is on its way: one would take the job back after a release.
     */
    keep: (ms: number) => {
      let lost = false;
      let beat: Promise<unknown> = Promise.resolve();
      const timer = setInterval(() => {
        beat = hold(ms).then(
          (held) => (lost ||= !held),
          () => undefined
        );
      }, ms / 3);
      timer.unref?.();
      return {
        lost: () => lost,
        end: async () => {
          clearInterval(timer);
          await beat;
        },
      };
    },
    /**
     * Calls `attempt` again when the present hold runs out: at once after a holder's kill, within
     * KEPT_MS while it lives (and renews it). One such call waits at a time; `stopRetrying` drops it.
     */
    whenFree: async (attempt: () => Promise<unknown>) => {
      const held = (await row().first(col('slot'))) as Record<string, unknown> | undefined;
      const wait = Math.min(Math.max(Number(held?.[col('slot')] ?? 0) - Date.now(), 0), KEPT_MS);
      clearTimeout(retry);
      retry = setTimeout(() => void attempt().catch(() => undefined), wait + 100);
      retry.unref?.();
    },
    stopRetrying: () => clearTimeout(retry),
    /** Lets the job go before its time runs out (only when this owner holds it). */
    release: async () => {
      await row()
        .andWhere(col('owner'), owner)
        .update({ [col('slot')]: 0, [col('updatedAt')]: new Date() });
    },
  };
}
