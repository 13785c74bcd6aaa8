import type { Core } from '@strapi/strapi';
import { pushEnvironment, pushTarget } from '../config/environment';
import { viewUrlOf } from '../config/view-url';
import type { PluginConfig } from '../config/types';
import { PLUGIN_ID } from '../permissions';
import { createRemoteClient, type RemoteClient } from '../remote';
import { httpFetch } from '../remote/http-fetch';
import { createCredentialsStore, type Credentials } from '../settings/credentials';
import { keyString, toKey } from '../sync/keys';
import { createLimiter, type Limiter } from '../sync/limiter';
import { createMediaReader } from '../sync/media';
import { createCatchUp } from '../sync/catchup';
import { createAlerts } from '../alerts';
import { createHistory } from '../sync/history';
import { createIntentBuffer } from '../sync/intents';
import { createPreview } from '../sync/preview';
import { createDocumentMiddleware } from '../sync/middleware';
import { createOutbox } from '../sync/outbox';
import { createPusher } from '../sync/push';
import { createRecovery } from '../sync/recovery';
import { createDrift, type DriftGroup, type DriftReport } from '../sync/drift';
import { createReconcileSchedule } from '../sync/drift/schedule';
import { createInventoryTable } from '../sync/inventory/table';
import { createInventoryWalk, type InventoryProgress } from '../sync/inventory/walk';
import { createLinker, type LinkOptions } from '../sync/link';
import { createRelated } from '../sync/related';
import { createResync } from '../sync/resync';
import { createStateStore } from '../sync/state';
import { STATUSES } from '../../../shared/contracts/sync';
import type {
  DryRunPlan,
  EntryState,
  ResyncProgress,
  SyncStatus,
  SyncStatusReport,
} from '../sync/types';
import { createWorker } from '../sync/worker';

const emptyCounts = () =>
  Object.fromEntries(STATUSES.map((s) => [s, 0])) as Record<SyncStatus, number>;

type KeyInput = { contentType: string; documentId: string; locale?: string | null };

export default ({ strapi }: { strapi: Core.Strapi }) => {
  const config = () => strapi.config.get(`plugin::${PLUGIN_ID}`) as PluginConfig;
  const mappings = () => strapi.plugin(PLUGIN_ID).service('mappings');
  const credentials = createCredentialsStore(strapi);
  const outbox = createOutbox(strapi);
  const states = createStateStore(strapi);
  const history = createHistory(strapi);
  const canPush = async () =>
    config().syncEnabled &&
    pushEnvironment(config()).pushing &&
    credentials.complete(await currentCredentials());
  const alerts = createAlerts(strapi, {
    queueDue: async () => (await outbox.depth()).due,
    canRun: () => canPush(),
  });

  let limiter: Limiter | undefined;
  let client: { key: string; client: RemoteClient } | undefined;

  const inventoryTable = createInventoryTable(strapi);
  const inventory = createInventoryWalk({
    strapi,
    table: inventoryTable,
    client: () => remoteClient(),
    background: (fn, onSent) => getLimiter().background(fn, onSent),
    // A page is asked again sooner than a push is retried: it is cheap and safe to repeat.
    pageRetryDelayMs: (attempt) =>
      Math.min(config().retry.maxMs, 10_000, (config().retry.baseMs / 4) * 2 ** (attempt - 1)) *
      (0.5 + Math.random() / 2),
  });
  const recovery = createRecovery({ walk: inventory, table: inventoryTable });

  const getLimiter = () =>
    (limiter ??= createLimiter({
      requestsPerSecond: config().rateLimit.requestsPerSecond,
      concurrency: config().rateLimit.concurrency,
      onPause: (ms) =>
        strapi.log.warn(
          `[location-content] the remote asked to slow down: pausing all calls for ${Math.ceil(ms / 1000)} s`
        ),
    }));

  /** Bumped when an admin saves credentials: a read of them that started before is stale. */
  let credentialsVersion = 0;

  /**
   * Credentials are read from the store at most every 2 s (a push used to cost one store query),
   * at once after a save here; another instance's save is seen within that time.
   */
  let cached:
    | { at: number; version: number; value: Promise<Awaited<ReturnType<typeof credentials.get>>> }
    | undefined;
  const currentCredentials = () => {
    if (!cached || cached.version !== credentialsVersion || Date.now() - cached.at > 2000) {
      const value = credentials.get();
      cached = { at: Date.now(), version: credentialsVersion, value };
      value.catch(() => (cached = undefined));
    }
    return cached.value;
  };

  /** One client per set of credentials, so a token is shared by every push and renewed once. */
  const remoteClient = async (): Promise<RemoteClient> => {
    let c: Awaited<ReturnType<typeof credentials.get>>;
    for (;;) {
      // A push that read the old credentials just before a save must not swap the new client
      // back for an old one (and the next push swap again): each swap loses the token, and the
      // redactor that knows the tokens already issued.
      const version = credentialsVersion;
      c = await currentCredentials();
      if (version === credentialsVersion) break;
    }
    if (!credentials.complete(c))
      throw new Error(
        'The Location Content API is not configured: set the base URL, client id and secret in Settings > Location Content.'
      );
    const key = `${c.baseUrl}\n${c.clientId}\n${c.clientSecret}`;
    if (client?.key !== key) {
      client?.client.close();
      client = { key, client: buildClient(c) };
    }
    return client.client;
  };

  const buildClient = (c: Credentials, opts: { limited?: boolean } = {}) =>
    createRemoteClient({
      ...c,
      timeoutMs: config().requestTimeoutMs,
      fetch: opts.limited === false ? undefined : (getLimiter().wrap(httpFetch) as any),
      logger: {
        debug: () => undefined,
        info: (m: string) => strapi.log.info(`[location-content] ${m}`),
        warn: (m: string) => strapi.log.warn(`[location-content] ${m}`),
        error: (m: string) => strapi.log.error(`[location-content] ${m}`),
      },
    });

  const mappingFor = (uid: string) => mappings().forContentType(uid);
  const resourceOf = (uid: string) => mappingFor(uid)?.resource;

  const related = createRelated({ strapi, states, outbox, mappings: () => mappings().active() });

  const pusher = createPusher({
    strapi,
    states,
    outbox,
    recovery,
    related,
    client: remoteClient,
    mappingFor,
    readMedia: createMediaReader(strapi, { timeoutMs: config().requestTimeoutMs }),
    maxMediaBytes: () => config().maxMediaBytes,
    requestTimeoutMs: () => config().requestTimeoutMs,
    mediaConcurrency: config().rateLimit.concurrency * 2,
  });
  const coalesce = () => config().coalesce ?? { settleMs: 300, maxWaitMs: 5_000 };
  const preview = createPreview({
    strapi,
    mappingFor,
    mappingContext: pusher.mappingContext,
    isLocalized: pusher.isLocalized,
    hasDraftAndPublish: pusher.hasDraftAndPublish,
  });

  let resync: ReturnType<typeof createResync>;
  const worker = createWorker({
    strapi,
    outbox,
    states,
    pusher,
    resourceOf,
    // Enough pushes side by side for their reads and writes to share statements, no more than the
    // rate limit lets out in about two seconds (the others would wait in the limiter, leased).
    maxInFlight: Math.min(
      200,
      Math.max(
        config().rateLimit.concurrency * 4,
        Math.ceil(config().rateLimit.requestsPerSecond * 2)
      )
    ),
    batchSize: config().batchSize,
    leaseMs: config().leaseMs,
    pollMs: 1000,
    retry: () => config().retry,
    settleWindowMs: () => coalesce().maxWaitMs,
    onRowDone: (row, result, end) => {
      resync?.onRowDone(row, result, end);
      // Refused credentials fail every entry: one alert of their own says so.
      if (result.kind === 'failed' && end === 'failed' && result.httpStatus !== 401)
        alerts.failed(row, result.reason);
    },
    onPushed: (key, result, ms) => {
      history.record(key, result, ms);
      alerts.pushed(result);
    },
    canRun: () => canPush(),
  });
  const linker = createLinker({
    strapi,
    states,
    outbox,
    pusher,
    table: inventoryTable,
    mappings: () => mappings().active(),
    lastCompleteAt: async () => (await inventory.progress()).lastCompleteAt,
    wake: () => worker.wake(),
  });
  resync = createResync({
    strapi,
    outbox,
    states,
    pusher,
    mappings: () => mappings().active(),
    wake: worker.wake,
  });
  const drift = createDrift({
    strapi,
    walk: inventory,
    states,
    client: remoteClient,
    enqueue: async (items) => {
      await outbox.enqueue(items);
      worker.wake();
    },
  });
  const reconcile = createReconcileSchedule({
    strapi,
    config: () => config().reconcile,
    check: () => drift.check(),
    repair: (groups) => drift.repair(groups),
    record: drift.recordScheduled,
  });

  const enqueueKeys = async (keys: KeyInput[], reason: string) => {
    const items = [];
    for (const k of keys) {
      const resource = resourceOf(k.contentType);
      if (!resource) throw new Error(`${k.contentType} is not mapped to the Location Content API`);
      let locale = k.locale;
      if (!locale && pusher.isLocalized(k.contentType))
        locale = await strapi.plugin('i18n').service('locales').getDefaultLocale();
      items.push({ ...toKey({ ...k, locale }), resource, reason });
    }
    await outbox.enqueue(items);
    worker.wake();
    return items.length;
  };

  /** Locales of a document in the database and in the sync state (after a delete, only the state knows them). */
  const localesOf = async (uid: string, documentId: string) => {
    const rows = await strapi.db
      .query(uid as any)
      .findMany({ select: ['locale'], where: { documentId } });
    return [
      ...new Set([
        ...rows.map((r: any) => r.locale ?? ''),
        ...(await states.localesOf(uid, documentId)),
      ]),
    ];
  };

  /** last change of each entry seen by this instance's middleware */
  const lastChange = new Map<string, number>();

  /**
   * Editors' intents are written off the save's path: a lone change at the next turn of the
   * event loop, the changes of a burst together, within a window shorter than the settle time
   * (their rows are not due before it anyway). A save used to wait for its own outbox write:
   * about half a millisecond on SQLite, mostly waiting for the connection that the save's own
   * transaction was still giving back, a third of the time of a simple update.
   */
  const intents = createIntentBuffer({
    write: (items) => outbox.enqueue(items),
    written: ({ leading, nextDueAt }) => {
      if (leading) worker.wake();
      // A settling row is not due yet: a timer, not a claim query on every save of a burst.
      else if (nextDueAt != null) worker.wakeAt(nextDueAt);
    },
    windowMs: () => Math.min(50, coalesce().settleMs / 2),
    log: (m) => strapi.log.error(`[location-content] ${m}`),
    recovered: (m) => strapi.log.warn(`[location-content] ${m}`),
  });

  /** What a crash loses of those intents is queued again at the next boot. */
  const catchUp = createCatchUp({
    strapi,
    outbox,
    states,
    owner: outbox.owner,
    types: () => {
      const mapped = mappings()
        .active()
        .map((m: any) => ({ uid: m.contentType as string, resource: m.resource }));
      const read = Object.keys(strapi.contentTypes)
        .filter((uid) => !mapped.some((m: any) => m.uid === uid) && related.isRead(uid))
        .map((uid) => ({ uid }));
      return [...mapped, ...read];
    },
    wake: () => worker.wake(),
  });

  return {
    /** document service middleware; registered in register() */
    middleware: () =>
      createDocumentMiddleware({
        strapi,
        resourceOf,
        isRead: (uid) => related.isRead(uid),
        settle: coalesce,
        localesOf,
        record: (items) => {
          // A lone change goes out at once (freshness); one that follows another change of the
          // same entry closely waits for the burst to settle, so 100 quick saves make one or two pushes.
          const { settleMs } = coalesce();
          const now = Date.now();
          const paced = items.map((it) => {
            const key = keyString(it);
            const previous = lastChange.get(key);
            lastChange.delete(key);
            lastChange.set(key, now);
            if (lastChange.size > 10_000) lastChange.delete(lastChange.keys().next().value!);
            return previous !== undefined && now - previous < settleMs
              ? it
              : { ...it, leading: true };
          });
          intents.add(paced);
        },
      }),

    async start() {
      await outbox.ensureIndexes();
      await states.ensureIndexes();
      await inventoryTable.ensureIndexes();
      await history.ensureIndexes();
      worker.start();
      resync.startTicker();
      await resync.resume();
      await catchUp.start();
      // An inventory walk that a stop or a failure interrupted goes on from where it was.
      if (await inventory.start()) inventory.walkAll().catch(() => undefined);
      await reconcile.start();
      alerts.start();
    },

    async stop() {
      // Every intent reaches the outbox before the worker stops; the run is then marked clean.
      await intents.flush();
      await reconcile.stop();
      await worker.stop();
      await inventory.stop();
      await resync.stop();
      await history.flush();
      alerts.stop();
      // A save that finished while the worker stopped: its intent is in the outbox too, and only
      // then is this run marked as stopped cleanly (no catch-up after it at the next boot).
      const clean = await intents.flush();
      intents.stop();
      await catchUp
        .stop(clean)
        .catch((err: any) =>
          strapi.log.warn(
            `[location-content] could not mark this run as stopped cleanly: ${err?.message ?? err}`
          )
        );
      limiter?.stop();
      client?.client.close();
    },

    /** Queues one entry now (the "Push now" action); the push itself happens in the background. */
    async push(key: KeyInput) {
      await enqueueKeys([key], 'manual');
    },

    async pushMany(keys: KeyInput[]) {
      return enqueueKeys(keys, 'manual');
    },

    resync(options: { dryRun?: boolean } = {}): Promise<ResyncProgress | DryRunPlan> {
      return options.dryRun ? resync.dryRun() : resync.start();
    },

    /**
     * Walks the remote account into the inventory table (behind the pushes); resolves when the
     * walk is complete, rejects when it stopped (it resumes from the last page at the next call).
     */
    async inventory(): Promise<InventoryProgress> {
      await inventory.walkAll();
      return inventory.progress();
    },

    /**
     * Compares the remote account with the sync states (after a fresh inventory walk unless
     * `fresh: false`) and keeps the report; reads only.
     */
    check(options: { fresh?: boolean } = {}): Promise<DriftReport> {
      return drift.check(options);
    },

    /** Queues the repairs of the given groups of the last drift report. */
    repair(options: { groups: DriftGroup[] }) {
      return drift.repair(options.groups);
    },

    /** One firing of the scheduled check, as the cron runs it (`fireDate`: the time it fired for). */
    reconcileNow: (fireDate?: Date) => reconcile.fire(fireDate),

    /** The last drift report and repair, as kept. */
    drift: () => drift.stored(),

    /**
     * Onboarding: entries without a remote object matched with the objects no entry owns, from the
     * last complete inventory walk. A dry run (the default) only proposes; otherwise the links
     * are recorded and the linked entries pushed (updates in place).
     */
    link(options: LinkOptions = {}) {
      return linker.link(options);
    },

    /** Every failed entry goes back to the queue, due at once; returns how many. */
    async retryFailed() {
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
        await outbox.enqueue(
          page.map((f) => ({
            contentType: f.contentType,
            documentId: f.documentId,
            locale: f.locale,
            resource: f.resource,
            reason: 'retry',
          }))
        );
        n += page.length;
      }
      worker.wake();
      return n;
    },

    async status(options: { failedLimit?: number } = {}): Promise<SyncStatusReport> {
      const counts = emptyCounts();
      const byType = new Map<string, SyncStatusReport['byContentType'][number]>();
      for (const m of mappings().active())
        byType.set(m.contentType, {
          contentType: m.contentType,
          resource: m.resource,
          counts: emptyCounts(),
        });
      for (const row of await states.countBy()) {
        counts[row.status] = (counts[row.status] ?? 0) + row.n;
        const t = byType.get(row.contentType) ?? {
          contentType: row.contentType,
          resource: row.resource,
          counts: emptyCounts(),
        };
        t.counts[row.status] = (t.counts[row.status] ?? 0) + row.n;
        byType.set(row.contentType, t);
      }
      const failed = await states.listByStatus('failed', options.failedLimit ?? 100);
      const saved = await credentials.get();
      await intents.flush();
      const q = await outbox.depth();
      const lim = getLimiter().stats();
      return {
        counts,
        byContentType: [...byType.values()],
        queue: { ...q, inFlight: worker.stats().inFlight },
        rateLimit: { pauses: lim.pauses, pausedUntil: lim.pausedUntil, ...config().rateLimit },
        resync: await resync.progress(),
        inventory: await inventory.progress(),
        reconcile: await (async () => {
          const kept = await drift.stored();
          return {
            cron: config().reconcile?.cron ?? null,
            repair: config().reconcile?.repair ?? null,
            lastRun: kept.scheduled,
            lastCheckAt: kept.report?.checkedAt ?? null,
          };
        })(),
        failed: failed.map((f) => ({
          contentType: f.contentType,
          documentId: f.documentId,
          locale: f.locale,
          resource: f.resource,
          reason: f.lastError ?? 'unknown error',
          at: f.lastErrorAt?.toISOString() ?? null,
          attempts: f.attempts,
          remoteId: f.remoteId ?? null,
          viewUrl: viewUrlOf(config(), f.resource, f.remoteId),
        })),
        configured: credentials.complete(saved),
        recording: intents.failure(),
        environment: pushEnvironment(config()),
        target: pushTarget(saved),
      };
    },

    /** What the entry's draft and published version would send now; nothing is sent. */
    async previewOf(key: KeyInput) {
      let locale = key.locale;
      if (!locale && pusher.isLocalized(key.contentType))
        locale = await strapi.plugin('i18n').service('locales').getDefaultLocale();
      return preview(toKey({ ...key, locale }));
    },

    /** The last attempts to push one entry, newest first. */
    async historyOf(key: KeyInput) {
      let locale = key.locale;
      if (!locale && pusher.isLocalized(key.contentType))
        locale = await strapi.plugin('i18n').service('locales').getDefaultLocale();
      return history.list(toKey({ ...key, locale }));
    },

    async stateOf(key: KeyInput): Promise<EntryState | null> {
      let locale = key.locale;
      if (!locale && pusher.isLocalized(key.contentType))
        locale = await strapi.plugin('i18n').service('locales').getDefaultLocale();
      const k = toKey({ ...key, locale });
      const s = await states.get(k);
      const queued = intents.has(k) || (await outbox.isQueued(k));
      if (!s)
        return queued
          ? {
              ...k,
              resource: resourceOf(k.contentType) as any,
              status: 'pending',
              remoteId: null,
              attempts: 0,
              lastError: null,
              lastErrorAt: null,
              lastSyncedAt: null,
              mediaUrl: null,
              queued,
            }
          : null;
      return {
        ...k,
        resource: s.resource,
        status: s.status,
        remoteId: s.remoteId,
        attempts: s.attempts,
        lastError: s.lastError,
        lastErrorAt: s.lastErrorAt?.toISOString() ?? null,
        lastSyncedAt: s.lastSyncedAt?.toISOString() ?? null,
        mediaUrl: s.mediaUrl,
        queued,
      };
    },

    /** Resolves when nothing is queued or in flight, a resync still listing entries included. */
    async idle(options: { timeoutMs?: number } = {}) {
      const end = Date.now() + (options.timeoutMs ?? 60_000);
      for (;;) {
        // Intents still in memory are work to do too.
        if (!(await intents.flush())) await new Promise((r) => setTimeout(r, 100));
        const listing = resync.running();
        if (listing) await listing;
        await worker.idle(Math.max(1, end - Date.now()));
        if (!resync.running() && !intents.size()) return;
        if (Date.now() > end)
          throw new Error('location-content: the sync queue was not idle in time');
      }
    },

    /** For the settings page: a client on given credentials, outside the rate-limited queue of the sync. */
    testClient: (c: Credentials) => buildClient(c, { limited: false }),
    alerts,
    credentials,
    /** drops the cached client so changed credentials take effect at the next push */
    credentialsChanged() {
      credentialsVersion += 1;
      client?.client.close();
      client = undefined;
      worker.wake();
    },
  };
};
