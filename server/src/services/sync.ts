import type { Core } from '@strapi/strapi';
import type { Credentials } from '../../settings/credentials';
import { reasonOf } from '../../sync/shared/db-error';
import { refreshPlannerStatistics } from '../../sync/shared/dialect';
import type { DriftGroup } from '../../sync/drift';
import type {
  DryRunPlan,
  KeyInput,
  LinkOptions,
  ResyncProgress,
  SyncService,
  SyncStatusReport,
} from '../../../../shared/contracts/sync';
import type { ImportOptions } from '../../../../shared/contracts/import';
import { cliRun } from '../../run-mode';
import { getService, type Services } from '../../utils';
import { createEntries } from './entries';
import { extend } from '../../utils/objects';
import { toKey } from '../../sync/shared/keys';

/**
 * The public sync service (`strapi.plugin('location-content').service('sync')`, typed by
 * `SyncService` in shared/contracts/sync.ts) and the plugin's lifecycle. The account and its
 * client are the `settings` service's, the status report the `status` service's: the calls kept
 * here for them delegate, so that scripts and tests that call them on `sync` go on working.
 */
export default ({ strapi }: { strapi: Core.Strapi }) => {
  const settings = getService('settings', { strapi });
  const entries = createEntries(strapi);
  const service = <K extends keyof Services>(name: K) => getService(name, { strapi });
  const outbox = () => service('outbox');
  const worker = () => service('worker');
  const resync = () => service('resync');
  const inventory = () => service('inventory').walk;
  const drift = () => service('drift');
  const importer = () => service('import');

  return {
    async start() {
      // Changed settings: the worker looks again, and credentials naming another account drop its inventory.
      settings.onChange(() => {
        worker().wake();
        void service('inventory').account.check();
      });
      await outbox().ensureIndexes();
      await service('state').ensureIndexes();
      await service('inventory').table.ensureIndexes();
      await service('history').ensureIndexes();
      await importer().ensureIndexes();
      // The CLI runs one command and exits: it starts the worker itself when the command waits for
      // pushes; the rest (resumptions, catch-up, walks, cron, alerts) is the servers' (run-mode.ts).
      if (cliRun()) {
        resync().startTicker();
        inventory().start();
        return;
      }
      // In the background: the boot does not wait for it (it warns itself if it fails).
      void refreshPlannerStatistics(strapi);
      // The resync a stop interrupted is loaded before the worker starts: a row of it that ends at
      // once (skipped, unchanged) is counted against it, not taken for pushed (done).
      resync().startTicker();
      await resync().resume();
      worker().start();
      await outbox().catchUp.start();
      inventory().start();
      // An import a restart interrupted goes on where it was (in the background); not in a CLI
      // run, which starts an import only when its command asks (run-mode.ts).
      await importer().resume();
      // Credentials that now name another account drop its inventory; a walk that a stop or a
      // failure interrupted resumes, and a linked account never walked is walked, in the background.
      await service('inventory').account.check();
      await drift().reconcile.start();
      service('alerts').start();
    },

    async stop() {
      // Every intent reaches the outbox before the worker stops; the run is then marked clean.
      const { intents, catchUp } = outbox();
      await intents.flush();
      await drift().reconcile.stop();
      await worker().stop();
      await importer().stop();
      await inventory().stop();
      await resync().stop();
      await service('history').flush();
      service('alerts').stop();
      // A save that finished while the worker stopped: its intent is in the outbox too, and only
      // then is this run marked as stopped cleanly (no catch-up after it at the next boot).
      const clean = await intents.flush();
      intents.stop();
      await catchUp
        .stop(clean)
        .catch((err: unknown) =>
          strapi.log.warn(
            `[location-content] could not mark this run as stopped cleanly: ${reasonOf(err)}`
          )
        );
      settings.close();
    },

    /** Queues one entry now (the "Push now" action); the push itself happens in the background. */
    async push(key: KeyInput) {
      await entries.enqueue([key], 'manual');
    },

    pushMany: (keys: KeyInput[]) => entries.enqueue(keys, 'manual'),

    resync(options: { dryRun?: boolean } = {}): Promise<ResyncProgress | DryRunPlan> {
      return options.dryRun ? resync().dryRun() : resync().start();
    },

    /**
     * Walks the remote account into the inventory table (behind the pushes); resolves when the
     * walk is complete, rejects when it stopped (it resumes from the last page at the next call).
     */
    async inventory() {
      await inventory().walkAll();
      return inventory().progress();
    },

    /**
     * Compares the remote account with the sync states (after a fresh inventory walk unless
     * `fresh: false`) and keeps the report; reads only.
     */
    check: (options: { fresh?: boolean } = {}) => drift().check(options),

    /** Queues the repairs of the given groups of the last drift report. */
    repair: (options: { groups: DriftGroup[] }) => drift().repair(options.groups),

    /** One firing of the scheduled check, as the cron runs it (`fireDate`: the time it fired for). */
    reconcileNow: (fireDate?: Date) => drift().reconcile.fire(fireDate),

    /** The last drift report and repair, as kept. */
    drift: () => drift().stored(),

    /**
     * Onboarding: entries without a remote object matched with the objects no entry owns, from the
     * last complete inventory walk. A dry run (unless `dryRun: false`) only proposes; otherwise
     * the links are recorded and the linked entries pushed (updates in place).
     */
    link: (options: LinkOptions = {}) => service('link').link(options),

    /**
     * Import: the remote objects no entry owns into entries of the mapped types. `dryRun: true`
     * answers the plan; otherwise the background job starts (or the one running is joined) and
     * its progress is answered.
     */
    import: ((options: ImportOptions = {}) =>
      options.dryRun
        ? importer().run(extend(options, { dryRun: true as const }))
        : importer().run(extend(options, { dryRun: false as const }))) as SyncService['import'],

    /** The import job running or the last one; null before the first. */
    importProgress: () => importer().progress(),

    /** Every failed entry goes back to the queue, due at once; returns how many. */
    async retryFailed() {
      const states = service('state');
      let n = 0;
      let after = 0;
      for (;;) {
        const page = await states.pageByStatus('failed', after, 500);
        if (!page.length) break;
        after = page[page.length - 1].id!;
        // Pending first, then queued: a push that finishes in between must not be overwritten.
        await states.setStatus(
          page.map((f) => f.id!),
          'pending',
          'failed'
        );
        await outbox().enqueue(
          page.map((f) => extend(toKey(f), { resource: f.resource, reason: 'retry' }))
        );
        n += page.length;
      }
      worker().wake();
      return n;
    },

    status: (options: { failedLimit?: number } = {}): Promise<SyncStatusReport> =>
      getService('status', { strapi }).report(options),

    /** What the entry's draft and published version would send now; nothing is sent. */
    previewOf: entries.previewOf,

    /** The last attempts to push one entry, newest first. */
    historyOf: entries.historyOf,

    stateOf: entries.stateOf,

    /** Resolves when nothing is queued or in flight, a resync still listing entries included. */
    async idle(options: { timeoutMs?: number } = {}) {
      const end = Date.now() + (options.timeoutMs ?? 60_000);
      for (;;) {
        // Intents still in memory are work to do too.
        const { intents } = outbox();
        if (!(await intents.flush())) await new Promise((r) => setTimeout(r, 100));
        const listing = resync().running();
        if (listing) await listing;
        await worker().idle(Math.max(1, end - Date.now()));
        if (!resync().running() && !intents.size()) return;
        if (Date.now() > end)
          throw new Error('location-content: the sync queue was not idle in time');
      }
    },

    get alerts() {
      return service('alerts');
    },
    /** The `settings` service's, kept here for callers of `sync.credentials`. */
    credentials: settings.credentials,
    testClient: (c: Credentials) => settings.testClient(c),
    /** Drops the cached client so changed credentials take effect at the next push (`settings.changed`). */
    credentialsChanged: () => settings.changed(),
  };
};
