/**
 * Push history: the last attempts of each entry (result, HTTP status, duration), as the side
 * panel and the dashboard show them, written off the push's path. A failed write loses history,
 * never a push, and is logged once a minute at most.
 */
import type { Core } from '@strapi/strapi';
import type { PushAttempt } from '../../../../shared/contracts/history';
import { reasonOf } from '../shared/db-error';
import { keyLabel, keyString } from '../shared/keys';
import { insertRows } from '../shared/dialect';
import type { PushResult } from '../push';
import { ATTEMPT_UID, ensureIndex, newRow, tableInfo } from '../shared/tables';
import type { EntryKey } from '../shared/types';

/** Attempts kept per entry. */
const HISTORY_SIZE = 20;

const CHUNK = 200;
/** how long attempts wait in the buffer to be written together */
const FLUSH_MS = 200;

/** What one push result tells of the attempt, or null when nothing was attempted (a check that found nothing changed). */
function attemptOf(result: PushResult, durationMs: number) {
  const at = new Date();
  // One literal, no spread of a base (see newRow in tables.ts): one is made for every push.
  const attempt = (
    operation: PushAttempt['operation'],
    outcome: PushAttempt['outcome'],
    httpStatus: number | null = null,
    message: string | null = null
  ) => ({
    at,
    durationMs: Math.max(0, Math.round(durationMs)),
    operation,
    outcome,
    httpStatus,
    message,
  });
  switch (result.kind) {
    case 'unchanged':
      return null;
    case 'synced':
      return attempt(result.operation, 'synced');
    case 'removed':
      return attempt('delete', 'removed');
    case 'waiting':
      return attempt('push', 'waiting', null, `Waits for ${result.on.map(keyLabel).join(', ')}`);
    case 'failed':
      return attempt(
        'push',
        'failed',
        result.httpStatus ?? null,
        result.mapping ? `Mapping: ${result.reason}` : result.reason
      );
  }
}

/** Attempts are buffered and written together (one insert per flush), then the entries they
 * touched are cut back to their last HISTORY_SIZE rows (one delete). */
export function createHistory(strapi: Core.Strapi) {
  const info = () => tableInfo(strapi, ATTEMPT_UID);
  let buffer: Array<{ key: string; attempt: NonNullable<ReturnType<typeof attemptOf>> }> = [];
  let timer: NodeJS.Timeout | undefined;
  let writing: Promise<void> = Promise.resolve();
  let lastLogAt = 0;

  const write = async (rows: typeof buffer) => {
    const { table, col } = info();
    const db = strapi.db.connection;
    const now = new Date();
    await insertRows(
      db,
      table,
      rows.map(({ key, attempt: a }) =>
        newRow(col, now, {
          [col('entryKey')]: key,
          [col('at')]: a.at,
          [col('operation')]: a.operation,
          [col('outcome')]: a.outcome,
          [col('httpStatus')]: a.httpStatus,
          [col('message')]: a.message,
          [col('durationMs')]: a.durationMs,
        })
      )
    );
    const keys = [...new Set(rows.map((r) => r.key))];
    for (let i = 0; i < keys.length; i += CHUNK) {
      const ranked = db(table)
        .select(
          'id',
          db.raw('ROW_NUMBER() OVER (PARTITION BY ?? ORDER BY ?? DESC) AS rn', [
            col('entryKey'),
            'id',
          ])
        )
        .whereIn(col('entryKey'), keys.slice(i, i + CHUNK))
        .as('ranked');
      // Through a derived table: MySQL refuses a delete that reads its own table directly.
      await db(table)
        .whereIn('id', db.select('id').from(ranked).where('rn', '>', HISTORY_SIZE))
        .del();
    }
  };

  const flush = (): Promise<void> => {
    if (timer) clearTimeout(timer);
    timer = undefined;
    const rows = buffer;
    buffer = [];
    if (rows.length) {
      writing = writing.then(() =>
        write(rows).catch((err) => {
          if (Date.now() - lastLogAt < 60_000) return;
          lastLogAt = Date.now();
          strapi.log.warn(
            `[location-content] could not record the push history of ${rows.length} attempt(s): ${reasonOf(err)}`
          );
        })
      );
    }
    return writing;
  };

  return {
    ensureIndexes: () =>
      ensureIndex(strapi, info().table, 'entry_idx', [info().col('entryKey'), 'id']),

    record(key: EntryKey, result: PushResult, durationMs: number) {
      const attempt = attemptOf(result, durationMs);
      if (!attempt) return;
      buffer.push({ key: keyString(key), attempt });
      timer ??= setTimeout(flush, FLUSH_MS);
    },

    flush,

    /** Newest first. */
    async list(key: EntryKey): Promise<PushAttempt[]> {
      await flush();
      // The driver may give `at` as text, a number or a Date.
      const rows = await strapi.db.query(ATTEMPT_UID).findMany({
        where: { entryKey: keyString(key) },
        orderBy: { id: 'desc' },
        limit: HISTORY_SIZE,
      });
      return rows.map((r) => ({
        at: new Date(r.at).toISOString(),
        operation: r.operation,
        outcome: r.outcome,
        httpStatus: r.httpStatus ?? null,
        message: r.message ?? null,
        durationMs: r.durationMs ?? 0,
      }));
    },
  };
}
