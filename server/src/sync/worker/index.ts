/**
 * The worker: claims due outbox rows under a lease (so replicas never push one row twice), pushes
 * them side by side through the pusher, and ends each row: done, retried later with backoff
 * (backoff.ts), or failed for an editor to see. Woken at once by a change and by a timer set to
 * the next due row; a slow poll picks up work enqueued by other instances.
 */
import { AsyncResource } from 'node:async_hooks';
import type { Core } from '@strapi/strapi';
import type { OutboxRow } from '../outbox';
import type { PushResult } from '../push';
import { getService } from '../../utils';
import { pluginConfig } from '../shared/config';
import { backoffMs } from './backoff';
import { failureOf, reasonOf } from '../shared/db-error';
import { keyLabel, toKey } from '../shared/keys';
import { extend } from '../../utils/objects';

/** How a row ended: pushed (or removed), skipped (nothing to change, or waiting for a dependency), failed. */
export type RowEnd = 'done' | 'skipped' | 'failed';

const END: Record<PushResult['kind'], RowEnd> = {
  synced: 'done',
  removed: 'done',
  unchanged: 'skipped',
  waiting: 'skipped',
  failed: 'failed',
};

export function createWorker(strapi: Core.Strapi) {
  const config = pluginConfig(strapi);
  // Enough pushes side by side for their reads and writes to share statements, no more than the
  // rate limit lets out in about two seconds (the others would wait in the limiter, leased).
  const maxInFlight = Math.min(
    200,
    Math.max(config.rateLimit.concurrency * 4, Math.ceil(config.rateLimit.requestsPerSecond * 2))
  );
  const { batchSize, leaseMs } = config;
  const pollMs = 1000;
  const outbox = () => getService('outbox', { strapi });
  const states = () => getService('state', { strapi });

  /** The row leaves the outbox unless its entry changed meanwhile: the resync counts it, an alert says a failure. */
  const finish = async (row: OutboxRow, result: PushResult) => {
    if (!(await outbox().complete(row))) return;
    getService('resync', { strapi }).onRowDone(row, END[result.kind]);
    // Refused credentials fail every entry: one alert of their own says so.
    if (result.kind === 'failed' && result.httpStatus !== 401)
      getService('alerts', { strapi }).failed(row, result.reason);
  };

  /** The running pushes by row id, for stop() to wait for: a row is claimed only while there is room for it. */
  const inFlight = new Map<number, Promise<void>>();
  /** Rows claimed again while their push was in flight: each goes once that push ends. */
  const claimedAgain = new Map<number, OutboxRow>();
  let stopped = true;
  let pumping = false;
  /** the running pump's end: stop() waits for it, so that no claim outlives the stop */
  let pumped: Promise<void> = Promise.resolve();
  let again = false;
  let pollTimer: NodeJS.Timeout | undefined;
  let renewTimer: NodeJS.Timeout | undefined;
  let dueTimer: NodeJS.Timeout | undefined;
  let dueTimerAt = Infinity;
  let failingSince: number | undefined;
  const idleWaiters = new Set<() => void>();

  const handle = async (row: OutboxRow) => {
    const key = toKey(row);
    const started = performance.now();
    const result = await getService('push', { strapi })
      .push(key)
      // A push that throws failed to record its own failure: a database error, whose message
      // holds the statement and editors' content.
      .catch((err): PushResult => ({ kind: 'failed', reason: failureOf(err), retryable: true }));
    getService('history', { strapi }).record(key, result, performance.now() - started);
    getService('alerts', { strapi }).pushed(result);
    try {
      const { retry } = pluginConfig(strapi);
      const retryable = result.kind === 'failed' && result.retryable;
      if (retryable && result.throttled) {
        // The remote's rate limit is nobody's fault: wait as asked, without spending an attempt.
        await outbox().retryLater(row, Math.max(result.retryAfterMs ?? 0, retry.baseMs), false);
      } else if (retryable && row.attempts + 1 < retry.maxAttempts) {
        await outbox().retryLater(row, backoffMs(row.attempts, retry, result.retryAfterMs));
      } else {
        if (retryable) {
          // Stop and wait for an editor (retry, or a new change): the reason stays readable.
          // (A row of a type that is only read through relations has no state to mark.)
          const mapping = getService('mappings', { strapi }).forContentType(row.contentType);
          if (mapping) {
            await states().upsert(key, {
              resource: mapping.resource,
              status: 'failed',
              lastError: `Gave up after ${row.attempts + 1} attempts: ${result.reason}`,
              lastErrorAt: new Date(),
            });
          } else {
            strapi.log.error(
              `[location-content] gave up re-queuing the entries that read ${row.contentType} ${row.documentId}: ${result.reason}`
            );
          }
        }
        // A waiting entry is re-queued by its dependency when that one gets its remote id.
        await finish(row, result);
      }
    } catch (err) {
      strapi.log.error(
        `[location-content] could not record the push of ${row.contentType} ${row.documentId}: ${reasonOf(err)}`
      );
    }
  };

  /**
   * Pushes a row, then, one push of an entry at a time, the claims of it that came meanwhile. A
   * claim that came before the push ended had its lease cleared (or its row deleted) by that end:
   * not ours to push, unless we still hold the lease. The waiting claim shares its push's id in
   * inFlight, so the renewals keep its lease; when stopping it is left for stop() to release.
   */
  const pushAll = async (first: OutboxRow) => {
    const { id } = first;
    let row: OutboxRow | undefined = first;
    try {
      while (row) {
        await handle(row);
        row = undefined;
        while (!row && !stopped && claimedAgain.has(id)) {
          const next = claimedAgain.get(id)!;
          // Unknown (the database failed): its lease runs out and the row is claimed again then.
          const ours = await outbox()
            .holds(id)
            .catch(() => false);
          // Stopping: stop() releases it. Claimed once more during the check: look again.
          if (stopped || claimedAgain.get(id) !== next) continue;
          claimedAgain.delete(id);
          if (ours) row = next;
        }
      }
    } finally {
      // In the same step as the last look at claimedAgain: a claim after it starts a push of its own.
      inFlight.delete(id);
    }
  };

  /** Wakes the worker when the next waiting row (settling, backing off) becomes due. */
  const armDueTimer = async () => {
    // Rows already due wait for room, and finishing rows make room and wake the worker.
    if (stopped || inFlight.size >= maxInFlight) return;
    const next = await outbox()
      .nextDueAt()
      .catch(() => null);
    if (next != null) wakeAt(next);
  };

  /** A timer, no query: for a row this instance just made due at `next`. */
  const wakeAt = (next: number) => {
    if (stopped) return;
    const at = Math.max(next, Date.now());
    // The poll covers what is further away than one poll interval.
    if (at - Date.now() > pollMs || at >= dueTimerAt) return;
    clearTimeout(dueTimer);
    dueTimerAt = at;
    dueTimer = setTimeout(
      () => {
        dueTimerAt = Infinity;
        wake();
      },
      at - Date.now() + 5
    );
    dueTimer.unref?.();
  };

  // Safety net: an entry left pending with nothing queued (an unforeseen race) is queued again.
  let sweeping = false;
  let sweepAfter = 0;
  const sweep = async () => {
    if (sweeping || stopped) return;
    sweeping = true;
    try {
      const { lost, next } = await states().stranded(10_000, 50, sweepAfter);
      sweepAfter = next;
      if (lost.length) {
        await outbox().enqueue(
          lost.map((s) => extend(toKey(s), { resource: s.resource, reason: 'stranded' }))
        );
        // Each one is a race this engine did not foresee: say which entries, and what they last did.
        const which = lost
          .map(
            (s) =>
              `${keyLabel(s)} [updated ${s.updatedAt?.toISOString() ?? '?'}, attempts ${s.attempts}, remote id ${s.remoteId ?? 'none'}, last error: ${s.lastError ?? 'none'}]`
          )
          .join('; ');
        strapi.log.warn(
          `[location-content] ${lost.length} pending entr${lost.length === 1 ? 'y' : 'ies'} had nothing queued; queued again: ${which}`
        );
      }
    } catch {
      // the next poll tries again
    } finally {
      sweeping = false;
    }
  };

  const pump = async () => {
    if (stopped) return;
    if (pumping) {
      again = true;
      return;
    }
    pumping = true;
    let ended!: () => void;
    pumped = new Promise((resolve) => (ended = resolve));
    try {
      if (!(await getService('settings', { strapi }).canPush())) return;
      do {
        again = false;
        while (!stopped) {
          const room = maxInFlight - inFlight.size;
          if (room <= 0) break;
          const rows = await outbox().claim(Math.min(room, batchSize), leaseMs);
          // Claimed while stopping: leased to a run that ends, the next would wait out the lease.
          if (stopped) await outbox().release(rows.map((r) => r.id));
          if (!rows.length || stopped) break;
          for (const row of rows) {
            // Our own push of it still runs (its lease ran out under a stalled event loop, or the
            // push has just ended the row and not yet left): it goes next, once that push ends.
            if (inFlight.has(row.id)) {
              claimedAgain.set(row.id, row);
              continue;
            }
            const pushing = pushAll(row).finally(() => {
              // Refill in batches, not one claim query per finished row.
              if (inFlight.size <= maxInFlight / 2) wake();
              if (!inFlight.size) checkIdle();
            });
            inFlight.set(row.id, pushing);
          }
        }
      } while (again && !stopped);
      await armDueTimer();
      if (failingSince !== undefined) {
        strapi.log.info(
          `[location-content] worker: the outbox can be read again (after ${Math.round((Date.now() - failingSince) / 1000)} s)`
        );
        failingSince = undefined;
      }
    } catch (err) {
      // One line per episode (a database that is down fails every poll), without the statement.
      if (!stopped && failingSince === undefined) {
        failingSince = Date.now();
        strapi.log.error(
          `[location-content] worker: cannot read the outbox: ${reasonOf(err)} (trying again at each poll)`
        );
      }
    } finally {
      pumping = false;
      ended();
      if (!inFlight.size) checkIdle();
    }
  };

  // Bound to the context of start(), not of the caller: a wake from inside an editor's
  // transaction must not run the worker's queries in that transaction.
  let wake: () => void = () => undefined;

  const checkIdle = async () => {
    if (!idleWaiters.size || inFlight.size || pumping) return;
    const { depth } = await outbox()
      .depth()
      .catch(() => ({ depth: 1 }));
    if (depth === 0 && !inFlight.size) {
      for (const resolve of idleWaiters) resolve();
      idleWaiters.clear();
    }
  };

  const start = () => {
    if (!stopped) return;
    stopped = false;
    wake = AsyncResource.bind(() => {
      if (!stopped) setImmediate(pump);
    });
    const poll = AsyncResource.bind(() => {
      sweep();
      pump();
      checkIdle();
    });
    pollTimer = setInterval(poll, pollMs);
    pollTimer.unref?.();
    renewTimer = setInterval(
      AsyncResource.bind(() => {
        outbox()
          .renew([...inFlight.keys()], leaseMs)
          .catch(() => undefined);
      }),
      Math.max(1000, Math.floor(leaseMs / 3))
    );
    renewTimer.unref?.();
    wake();
  };

  const stop = async () => {
    stopped = true;
    clearInterval(pollTimer);
    clearInterval(renewTimer);
    clearTimeout(dueTimer);
    await pumped;
    await Promise.allSettled(inFlight.values());
    // Claimed rows that never started would stay leased until the lease runs out: a restart
    // (or another instance) would wait that long for them.
    await outbox()
      .release([...inFlight.keys(), ...claimedAgain.keys()])
      .catch(() => undefined);
    inFlight.clear();
    claimedAgain.clear();
  };

  /** Resolves when the outbox is empty and nothing is in flight. */
  const idle = (timeoutMs = 60_000) =>
    new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        idleWaiters.delete(done);
        reject(new Error(`location-content: the sync queue was not idle after ${timeoutMs} ms`));
      }, timeoutMs);
      const done = () => {
        clearTimeout(timer);
        resolve();
      };
      idleWaiters.add(done);
      wake();
      checkIdle();
    });

  return {
    start,
    stop,
    wake: () => wake(),
    wakeAt,
    idle,
    stats: () => ({ inFlight: inFlight.size }),
  };
}
