import { randomUUID } from 'node:crypto';
import { RESOURCES, type ResourceKind } from '../remote/types';
import { PLUGIN_ID } from '../permissions';
import { createLease, KEPT_MS } from '../sync/shared/lease';
import { getService } from '../utils';
import type {
  ImportCounts,
  ImportInto,
  ImportOptions,
  ImportProgress,
} from '../../../shared/contracts/import';
import { failureOf } from '../sync/shared/db-error';
import { resolveTargets, type ImportContext } from './context';
import { createEntryImporter } from './entry';
import { createEventLinks } from './links';

const STORE_KEY = 'import';
const PAGE = 50;
class Overtaken extends Error {
  message = 'another Strapi instance runs the import';
}
const overtaken = () => new Overtaken();

/** The job as kept in Strapi's core store: where it is, so that it resumes there. */
export interface StoredJob extends Pick<
  ImportProgress,
  'id' | 'state' | 'startedAt' | 'finishedAt' | 'publish' | 'phase' | 'error'
> {
  locale: string;
  /** the content type chosen per resource (sync.import's `into`), kept so a resumed job keeps it */
  into?: ImportInto | null;
  /** the last remote id done in the current resource (objects are taken by ascending id) */
  after: number;
  /** the last pinpoint whose events were read */
  linksAfter: number;
  /** objects no entry owned, per resource, when the job listed them */
  totals: Record<ResourceKind, number>;
}

const zero = (): ImportCounts => ({ total: 0, done: 0, failed: 0, skipped: 0 });

/**
 * The import job: walk (when the account never was), the events' pinpoints, then categories,
 * pinpoints, events and lists, each an ascending run over the inventory's objects that no
 * entry owns. Its place is kept in the core store and each object's outcome in the import's
 * table, so a restart (or a kill -9) resumes it without importing an object twice. One instance
 * runs it at a time (a lease), the others read its progress.
 */
export function createImportJob(ctx: ImportContext) {
  const { strapi, items } = ctx;
  const lease = createLease(strapi, 'import');
  const inventory = () => getService('inventory', { strapi });
  const mappings = () => getService('mappings', { strapi }).active();
  const store = () => strapi.store({ type: 'plugin', name: PLUGIN_ID });
  let running: Promise<void> | undefined;
  let stopping = false;
  const importer = createEntryImporter(ctx);
  const links = createEventLinks(ctx, () => stopping);

  const load = async () => ((await store().get({ key: STORE_KEY })) as StoredJob | null) ?? null;
  const save = (job: StoredJob) => store().set({ key: STORE_KEY, value: job });

  const progressOf = async (job: StoredJob): Promise<ImportProgress> => {
    const byResource = Object.fromEntries(
      RESOURCES.map((r) => [r, { ...zero(), total: job.totals?.[r] ?? 0 }])
    ) as Record<ResourceKind, ImportCounts>;
    for (const { resource, status, n } of await items.countsOf(job.id))
      if (status === 'done' || status === 'failed' || status === 'skipped')
        byResource[resource][status] += Number(n);
    const counts = zero();
    for (const c of Object.values(byResource)) {
      // Objects an editor linked meanwhile leave the job: a finished job's total is what it did.
      if (job.state === 'done') c.total = c.done + c.failed + c.skipped;
      for (const key of ['total', 'done', 'failed', 'skipped'] as const) counts[key] += c[key];
    }
    return {
      id: job.id,
      state: job.state,
      startedAt: job.startedAt,
      finishedAt: job.finishedAt,
      locale: job.locale,
      publish: job.publish,
      into: job.into ?? {},
      phase: job.state === 'running' ? job.phase : null,
      counts,
      byResource,
      ...(await items.issuesOf(job.id)),
      error: job.error,
    };
  };

  /** `held`: the caller has just taken the lease (a resume), which is not taken a second time. */
  const run = async (job: StoredJob, held: boolean) => {
    if (!held && !(await lease.hold(KEPT_MS))) throw overtaken();
    // Renewed apart from the work: a page of slow downloads must not outlast the hold.
    const kept = lease.keep(KEPT_MS);
    try {
      await steps(job, () => {
        if (kept.lost()) throw overtaken();
      });
    } finally {
      await kept.end();
    }
  };

  /** `held`: throws once the heartbeat found the job taken over. */
  const steps = async (job: StoredJob, held: () => void) => {
    const targets = resolveTargets(mappings(), job.into);
    if (job.phase === 'walk') {
      // What the account holds now (an interrupted walk resumes): objects made since the last
      // walk are imported too, and those deleted since are not looked for.
      await inventory().walk.walkAll();
      await save(Object.assign(job, { totals: await items.unownedByResource(), phase: 'links' }));
    }
    if (job.phase === 'links') {
      const events = targets.event;
      if (events && !ctx.planOf(events).blocked)
        await links.run(job.linksAfter, async (after) => {
          job.linksAfter = after;
          await save(job);
          held();
        });
      await save(Object.assign(job, { phase: 'category', after: 0 }));
    }
    // Past the walk and the links, the phase is a resource.
    for (const resource of RESOURCES.slice(RESOURCES.indexOf(job.phase as ResourceKind))) {
      job.phase = resource;
      const mapping = targets[resource];
      while (mapping) {
        const rows = await inventory().table.page(resource, job.after, PAGE);
        if (!rows.length) break;
        for (const row of rows) {
          if (stopping) throw new Error('stopped');
          held();
          await importer.importOne(mapping, row, job);
          job.after = row.remoteId;
          // A turn of the event loop: on SQLite an object with no file to download never leaves
          // the microtask queue, and no HTTP request (the progress included) would be served.
          await new Promise((resolve) => setImmediate(resolve));
        }
        await save(job);
      }
      await save(Object.assign(job, { after: 0 }));
    }
    await save(
      Object.assign(job, { state: 'done', phase: null, finishedAt: new Date().toISOString() })
    );
  };

  /** Runs (or goes on with) `job` in the background; its end or failure is kept with it. */
  const launch = (job: StoredJob, held = false) => {
    running ??= run(job, held)
      .catch(async (err) => {
        if (stopping || err instanceof Overtaken) return;
        job.state = 'failed';
        job.error = failureOf(err);
        await save(job).catch(() => undefined);
        strapi.log.warn(
          `[location-content] the import stopped: ${job.error}. Starting it again resumes it.`
        );
      })
      .finally(() => {
        running = undefined;
        void lease.release().catch(() => undefined);
      });
  };

  const start = async (options: ImportOptions = {}): Promise<ImportProgress> => {
    const stored = await load();
    if (stored?.state === 'running') {
      launch(stored);
      return progressOf(stored);
    }
    const locale = await ctx.localeFor(options.locale);
    // Refused before anything is recorded: a choice no active mapping backs is the caller's error.
    resolveTargets(mappings(), options.into);
    // A failed job resumes where it stopped, with the options it was started with.
    const job: StoredJob =
      stored?.state === 'failed'
        ? Object.assign(stored, { state: 'running' as const, error: null })
        : {
            id: randomUUID(),
            state: 'running',
            startedAt: new Date().toISOString(),
            finishedAt: null,
            locale,
            publish: options.publish === true,
            into: options.into ?? null,
            phase: 'walk',
            after: 0,
            linksAfter: 0,
            totals: { category: 0, pinpoint: 0, event: 0, list: 0 },
            error: null,
          };
    await lease.ensure();
    await save(job);
    launch(job);
    return progressOf(job);
  };

  /** At boot: a job a restart interrupted goes on (by one instance; the others try again later). */
  const resume = async () => {
    stopping = false;
    await lease.ensure();
    const tryResume = async () => {
      const stored = await load();
      if (stored?.state !== 'running' || running || stopping) return;
      if (await lease.hold(KEPT_MS)) launch(stored, true);
      else await lease.whenFree(tryResume);
    };
    await tryResume();
  };

  const stop = async () => {
    stopping = true;
    lease.stopRetrying();
    await running?.catch(() => undefined);
  };

  const progress = async (): Promise<ImportProgress | null> => {
    const stored = await load();
    return stored ? progressOf(stored) : null;
  };

  return { start, resume, stop, progress };
}
