/**
 * Resync: a background job that queues every online entry of the mapped types (and the removal of
 * those gone), paged through the database, resumable after a restart, with progress and a dry run.
 */
import { randomUUID } from 'node:crypto';
import { AsyncResource } from 'node:async_hooks';
import type { Core } from '@strapi/strapi';
import type { Mapping } from '../../config/types';
import { PLUGIN_ID } from '../../permissions';
import { mapEntry, payloadHash } from '../../mapping';
import { failureOf } from '../shared/db-error';
import { createLease, KEPT_MS } from '../shared/lease';
import { refreshPlannerStatistics } from '../shared/dialect';
import { goneStatePages, onlineKeyPages } from '../shared/entries';
import type { OutboxRow } from '../outbox';
import { PRIORITY } from '../outbox';
import type { RowEnd } from '../worker';
import type { DryRunPlan, ResyncProgress } from '../shared/types';
import { extend } from '../../utils/objects';
import { keyString, toKey } from '../shared/keys';
import { getService } from '../../utils';

const STORE_KEY = 'resync-job';

/**
 * Each instance's failed and skipped rows of a job, under a key of its own: only the instance that
 * pushed a row knows how it ended, and one shared counter would lose the increments that cross.
 */
const TALLY_KEY = 'resync-tally:';
type Tally = { job: string; failed: number; skipped: number };

interface StoredJob extends ResyncProgress {
  /** where enumeration stands, so a restart resumes instead of starting over */
  cursor: { mapping: number; phase: 'entries' | 'states'; after: number } | null;
}

export function createResync(strapi: Core.Strapi) {
  const outbox = () => getService('outbox', { strapi });
  const states = () => getService('state', { strapi });
  const pusher = () => getService('push', { strapi });
  const wake = () => getService('worker', { strapi }).wake();
  const store = () => strapi.store({ type: 'plugin', name: PLUGIN_ID });
  let job: StoredJob | null = null;
  /**
   * This instance lists the job (it started or resumed it). Another instance's copy is only read:
   * written back, its stale cursor and state would overwrite the lister's, even its end.
   */
  let owned = false;
  let running: Promise<void> | null = null;
  /** Held while an instance lists: one that stopped mid-listing (a CLI run cut short) lets it go within KEPT_MS. */
  const lease = createLease(strapi, 'resync');
  /** set by stop(): the listing ends at the next page and resumes from its cursor at the next boot */
  let stopping = false;
  /** True once another instance took the listing over (this one's renewals failed for KEPT_MS). */
  let lost = () => false;
  let flushTimer: NodeJS.Timeout | undefined;
  const window: Array<{ at: number; done: number }> = [];

  const ordered = () =>
    [...getService('mappings', { strapi }).active()].sort(
      (a, b) => PRIORITY[a.resource] - PRIORITY[b.resource]
    );

  const tallyRows = () => strapi.db.query('strapi::core-store');
  const TALLY_PREFIX = `plugin_${PLUGIN_ID}_${TALLY_KEY}`;
  let mine: Tally = { job: '', failed: 0, skipped: 0 };
  let tallyWritten = JSON.stringify(mine);
  const writeTally = async () => {
    const text = JSON.stringify(mine);
    if (text === tallyWritten) return;
    await store().set({ key: TALLY_KEY + lease.owner, value: { ...mine } });
    tallyWritten = text;
  };
  /**
   * The job's failed and skipped rows, on every instance that pushed some (this one's written
   * first); null while none is tallied (the job's own figures stand: one stored by an earlier version).
   */
  const tallied = async (id: string) => {
    await writeTally();
    const rows = await tallyRows().findMany({
      select: ['value'],
      where: { key: { $startsWith: TALLY_PREFIX } },
    });
    let sum: { failed: number; skipped: number } | null = null;
    for (const { value } of rows as Array<{ value: string }>) {
      const t = JSON.parse(value) as Tally;
      if (t.job !== id) continue;
      sum ??= { failed: 0, skipped: 0 };
      sum.failed += t.failed;
      sum.skipped += t.skipped;
    }
    return sum;
  };

  let saved = '';
  /** Writes the job when it changed since the last write (status polls must not cost a write each). */
  const save = async () => {
    if (!job) return;
    const { rate: _rate, etaMs: _eta, ...durable } = job;
    const text = JSON.stringify(durable);
    if (text === saved) return;
    await store().set({ key: STORE_KEY, value: job });
    saved = text;
  };

  const load = async (): Promise<StoredJob | null> =>
    ((await store().get({ key: STORE_KEY })) as StoredJob) ?? null;

  /** The job as stored, unless this instance lists it (its own copy is newer). */
  const reload = async () => {
    if (owned && job?.state === 'running') return;
    owned = false;
    job = (await load()) ?? job;
  };

  const queued = (mapping: Mapping) => ({
    resource: mapping.resource,
    reason: 'resync',
    resyncJob: job!.id,
  });

  const enumerate = async () => {
    if (!job?.cursor) return;
    const mappings = ordered();
    for (let m = job.cursor.mapping; m < mappings.length; m++) {
      const mapping = mappings[m];
      if (job.cursor.phase === 'entries') {
        const pages = onlineKeyPages(strapi, mapping.contentType, {}, job.cursor.after);
        for await (const page of pages) {
          if (stopping || lost()) return;
          await outbox().enqueue(page.keys.map((k) => extend(k, queued(mapping))));
          job.total += page.keys.length;
          job.cursor.after = page.after;
          await save();
          wake();
        }
        job.cursor = { mapping: m, phase: 'states', after: 0 };
      }
      // States whose entry is gone are removed from the remote too. Resumed in this phase: from
      // the last state listed, so no state is counted twice.
      const after = job.cursor.phase === 'states' ? job.cursor.after : 0;
      for await (const gone of goneStatePages(strapi, states(), mapping.contentType, after)) {
        if (stopping || lost()) return;
        if (gone.length) {
          await outbox().enqueue(gone.map((s) => extend(toKey(s), queued(mapping))));
          job.total += gone.length;
          wake();
        }
        job.cursor = { mapping: m, phase: 'states', after: gone.after };
        await save();
      }
      job.cursor = { mapping: m + 1, phase: 'entries', after: 0 };
      await save();
    }
    job.cursor = null;
    await save();
  };

  /** Recomputes the counters; written only by the ticker and when the job ends (`persist`). */
  const refresh = async (persist = true) => {
    if (!job) return;
    const { id, state } = job;
    // Read even once the job is over: another instance's last rows may be tallied after its end.
    const tally = await tallied(id);
    if (job?.id !== id) return;
    if (tally) Object.assign(job, tally);
    const { failed, skipped } = job;
    if (state === 'done') job.done = Math.max(0, job.total - failed - skipped);
    if (state !== 'running') return;
    const remaining = await outbox().countForJob(job.id);
    // Every row that left the outbox and was not tallied failed or skipped was pushed.
    job.done = Math.max(0, job.total - remaining - failed - skipped);
    const finished = job.done + job.failed + job.skipped;
    const t = Date.now();
    window.push({ at: t, done: finished });
    while (window.length > 2 && t - window[0].at > 10_000) window.shift();
    const first = window[0];
    job.rate =
      t > first.at ? Math.round((((finished - first.done) * 1000) / (t - first.at)) * 10) / 10 : 0;
    job.etaMs = job.rate > 0 ? Math.round(((job.total - finished) / job.rate) * 1000) : null;
    if (!job.cursor && remaining === 0) {
      job.state = 'done';
      job.finishedAt = new Date().toISOString();
      job.etaMs = 0;
      // Its end is written by whoever sees it: the lister may be gone (a CLI run that ended).
      return save();
    }
    if (persist && owned) await save();
  };

  const run = () => {
    const kept = lease.keep(KEPT_MS);
    lost = kept.lost;
    const go = async () => {
      try {
        // Entries imported since the boot change the best plan of their reads. Here, not in
        // start(): the admin's request does not wait for it, and a resumed listing gets it too.
        await refreshPlannerStatistics(strapi);
        await enumerate();
      } catch (err) {
        if (job) {
          job.state = 'failed';
          job.error = `Resync stopped while listing entries: ${failureOf(err)}`;
          await save();
        }
      }
    };
    running = AsyncResource.bind(go)().finally(async () => {
      await kept.end();
      await lease.release().catch(() => undefined);
      if (lost()) owned = false;
      running = null;
    });
  };

  /**
   * Lists the rest of the stored job here unless a live instance lists it; true when this one does.
   * Otherwise tried again when the lister's hold runs out: one killed seconds ago is taken over.
   */
  const takeOver = async (): Promise<boolean> => {
    if (!job?.cursor || running || stopping) return false;
    await lease.ensure();
    if (await lease.hold(KEPT_MS)) {
      owned = true;
      run();
      return true;
    }
    await lease.whenFree(AsyncResource.bind(() => reload().then(takeOver)));
    return false;
  };

  return {
    async start(): Promise<ResyncProgress> {
      // Another instance (a server, the CLI) may have started one since this one last looked.
      await reload();
      if (job?.state === 'running') {
        // Its listing is over and its rows have all left the outbox, whoever listed and pushed
        // them: it is done (the instance that listed it may be gone, as the CLI is), not joined.
        await refresh();
        if (job.state === 'running') {
          // Its lister may have stopped mid-listing (a CLI run cut short): this instance goes on.
          await takeOver();
          return job;
        }
      }
      job = {
        id: randomUUID(),
        state: 'running',
        dryRun: false,
        startedAt: new Date().toISOString(),
        finishedAt: null,
        total: 0,
        done: 0,
        failed: 0,
        skipped: 0,
        rate: 0,
        etaMs: null,
        error: null,
        cursor: { mapping: 0, phase: 'entries', after: 0 },
      };
      window.length = 0;
      owned = true;
      // The tallies of earlier jobs: this one's rows start new ones.
      await tallyRows().deleteMany({ where: { key: { $startsWith: TALLY_PREFIX } } });
      tallyWritten = JSON.stringify(mine);
      await save();
      await takeOver();
      return job;
    },

    /** After a restart: finish listing what the previous run had not listed yet, and count its rows. */
    async resume() {
      job = await load();
      // Listed to its end: its rows are counted here as they leave. Still listing: by its lister.
      owned = job?.state === 'running' && (job.cursor === null || (await takeOver()));
    },

    /**
     * Called once per row, when it leaves the outbox (a row that ran twice because its entry
     * changed counts once), on whichever instance pushed it, which may not know the job yet.
     */
    onRowDone(row: OutboxRow, end: RowEnd) {
      if (!row.resyncJob || end === 'done') return;
      if (mine.job !== row.resyncJob) mine = { job: row.resyncJob, failed: 0, skipped: 0 };
      mine[end] += 1;
    },

    startTicker() {
      // The job is refreshed only by its lister (another's copy is refreshed as it is read); every
      // instance writes its tally.
      flushTimer = setInterval(
        AsyncResource.bind(() => void (owned ? refresh() : writeTally()).catch(() => undefined)),
        500
      );
      flushTimer.unref?.();
    },

    async progress(): Promise<ResyncProgress | null> {
      // A job started by another instance (a server, the CLI) is read from the database.
      await reload();
      if (!job) return null;
      await refresh(false);
      const { cursor: _cursor, ...rest } = job;
      return rest;
    },

    /** What a resync would do, without doing it. Lists are cut at `limit` items; counts are whole. */
    async dryRun(limit = 100): Promise<DryRunPlan> {
      const plan: DryRunPlan = {
        create: [],
        update: [],
        delete: [],
        unchanged: 0,
        failed: [],
        truncatedAt: limit,
      };
      const push = <T>(list: T[], item: T) => list.length < limit && list.push(item);
      for (const mapping of ordered()) {
        for await (const page of onlineKeyPages(strapi, mapping.contentType)) {
          const known = await states().getMany(page.keys);
          for (const key of page.keys) {
            const state = known.get(keyString(key));
            try {
              const entry = await pusher().readEntry(key, mapping);
              if (!entry) continue;
              const outcome = await mapEntry(mapping, entry, pusher().mappingContext());
              if (outcome.action === 'skip') {
                if (state?.remoteId != null) push(plan.delete, key);
                continue;
              }
              if (state?.remoteId == null) push(plan.create, key);
              else if (state.payloadHash !== payloadHash(outcome) || state.status !== 'synced')
                push(plan.update, key);
              else plan.unchanged += 1;
            } catch (err) {
              // A database error's message holds its statement and values: its cause only.
              push(plan.failed, extend(key, { reason: failureOf(err) }));
            }
          }
        }
        for await (const gone of goneStatePages(strapi, states(), mapping.contentType)) {
          for (const s of gone) if (s.remoteId != null) push(plan.delete, toKey(s));
        }
      }
      return plan;
    },

    async stop() {
      stopping = true;
      lease.stopRetrying();
      await running?.catch(() => undefined);
      clearInterval(flushTimer);
      await writeTally().catch(() => undefined);
      if (job && owned) await save().catch(() => undefined);
    },
    running: () => running,
  };
}
