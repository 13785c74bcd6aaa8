import type { Core } from '@strapi/strapi';
import { reasonOf } from '../sync/shared/db-error';
import { refreshPlannerStatistics } from '../sync/shared/dialect';
import type { DriftGroup } from '../sync/drift';
import type {
  DryRunPlan,
  EntryKey,
  EntryState,
  KeyInput,
  LinkOptions,
  ResyncProgress,
  SyncService,
  SyncStatusReport,
} from '../../../shared/contracts/sync';
import type { ImportOptions } from '../../../shared/contracts/import';
import { cliRun } from '../run-mode';
import { getService, type Services } from '../utils';
import { extend } from '../utils/objects';
import { toKey } from '../sync/shared/keys';

/**
 * The public sync service (typed by `SyncService`, shared/contracts/sync.ts) and the plugin's
 * lifecycle; its account and status calls delegate to `settings` and `status`, for old callers.
 */
export default ({ strapi }: { strapi: Core.Strapi }) => {
  const settings = getService('settings', { strapi });
  const service = <K extends keyof Services>(name: K) => getService(name, { strapi });
  const resourceOf = (uid: string) => service('mappings').forContentType(uid)?.resource;
  const outbox = () => service('outbox');
  const worker = () => service('worker');
  const resync = () => service('resync');
  const inventory = () => service('inventory').walk;
  const drift = () => service('drift');
  const importer = () => service('import');

  /** The default locale, read at the first key that needs it: once per call, however many keys it has. */
  const defaultLocaleOnce = () => {
    let read: Promise<string> | undefined;
    return () => (read ??= strapi.plugin('i18n').service('locales').getDefaultLocale());
  };

  /** A key without a locale names the default locale of a localized type, and '' otherwise. */
  const keyOf = async (key: KeyInput, defaultLocale = defaultLocaleOnce()): Promise<EntryKey> => {
    let locale = key.locale;
    if (!locale && service('push').isLocalized(key.contentType)) locale = await defaultLocale();
    return toKey(extend(key, { locale }));
  };

  const enqueue = async (keys: KeyInput[], reason: string) => {
    const items = [];
    const defaultLocale = defaultLocaleOnce();
    for (const k of keys) {
      const resource = resourceOf(k.contentType);
      if (!resource) throw new Error(`${k.contentType} is not mapped to the Location Content API`);
      items.push(extend(await keyOf(k, defaultLocale), { resource, reason }));
    }
    await outbox().enqueue(items);
    worker().wake();
    return items.length;
  };

  const stateOf = async (key: KeyInput): Promise<EntryState | null> => {
    const k = await keyOf(key);
    const s = await service('state').get(k);
    const queued = outbox().intents.has(k) || (await outbox().isQueued(k));
    if (!s && !queued) return null;
    // Without a state, the entry is queued for its first push (the outbox takes mapped types only).
    return extend(k, {
      resource: s?.resource ?? resourceOf(k.contentType)!,
      status: s?.status ?? 'pending',
      remoteId: s?.remoteId ?? null,
      attempts: s?.attempts ?? 0,
      lastError: s?.lastError ?? null,
      lastErrorAt: s?.lastErrorAt?.toISOString() ?? null,
      lastSyncedAt: s?.lastSyncedAt?.toISOString() ?? null,
      mediaUrl: s?.mediaUrl ?? null,
      queued,
    });
  };

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
      resync().startTicker();
      // The CLI runs one command and exits: it starts the worker itself when the command waits for
      // pushes; the rest (resumptions, catch-up, walks, cron, alerts) is the servers' (run-mode.ts).
      if (cliRun()) return inventory().start();
      void refreshPlannerStatistics(strapi);
      // The resync a stop interrupted mid-listing is listed to its end, by one instance.
      await resync().resume();
      worker().start();
      await outbox().catchUp.start();
      inventory().start();
      // An import or a walk that a restart interrupted goes on where it was, in the background.
      await importer().resume();
      await service('inventory').account.check();
      await drift().reconcile.start();
      service('alerts').start();
    },

    async stop() {
      // Every intent reaches the outbox before the worker stops.
      const { intents, catchUp } = outbox();
      await intents.flush();
      await drift().reconcile.stop();
      await worker().stop();
      await importer().stop();
      await inventory().stop();
      await resync().stop();
      await service('history').flush();
      service('alerts').stop();
      // A save that ended meanwhile reaches the outbox too; only then is the run marked clean.
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

    // Each method is documented on SyncService (shared/contracts/sync.ts).
    async push(key: KeyInput) {
      await enqueue([key], 'manual');
    },
    pushMany: (keys: KeyInput[]) => enqueue(keys, 'manual'),

    resync(options: { dryRun?: boolean } = {}): Promise<ResyncProgress | DryRunPlan> {
      return options.dryRun ? resync().dryRun() : resync().start();
    },

    async inventory() {
      await inventory().walkAll();
      return inventory().progress();
    },

    check: (options: { fresh?: boolean } = {}) => drift().check(options),
    repair: (options: { groups: DriftGroup[] }) => drift().repair(options.groups),
    reconcileNow: (fireDate?: Date) => drift().reconcile.fire(fireDate),
    drift: () => drift().stored(),
    link: (options: LinkOptions = {}) => service('link').link(options),
    import: ((options: ImportOptions = {}) =>
      options.dryRun
        ? importer().plan(options)
        : importer().start(options)) as SyncService['import'],
    importProgress: () => importer().progress(),

    async retryFailed() {
      const states = service('state');
      let n = 0;
      let after = 0;
      for (;;) {
        const page = await states.pageByStatus('failed', after);
        if (!page.length) break;
        const ids = page.map((f) => f.id!);
        after = ids.at(-1)!;
        // Pending first, then queued: a push that finishes in between must not be overwritten.
        await states.failedToPending(ids);
        await outbox().enqueue(
          page.map((f) => extend(toKey(f), { resource: f.resource, reason: 'retry' }))
        );
        n += page.length;
      }
      worker().wake();
      return n;
    },

    status: (options: { failedLimit?: number } = {}): Promise<SyncStatusReport> =>
      service('status').report(options),
    previewOf: async (key: KeyInput) => service('preview')(await keyOf(key)),
    historyOf: async (key: KeyInput) => service('history').list(await keyOf(key)),
    stateOf,

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
    /** Drops the cached client so changed credentials take effect at the next push (`settings.changed`). */
    credentialsChanged: () => settings.changed(),
  };
};
