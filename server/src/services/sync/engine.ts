import type { Core, UID } from '@strapi/strapi';
import type { PluginConfig } from '../../config/types';
import { PLUGIN_ID } from '../../permissions';
import { createAlerts } from '../../alerts';
import { createCatchUp } from '../../sync/outbox/catchup';
import { createDrift } from '../../sync/drift';
import { createReconcileSchedule } from '../../sync/drift/schedule';
import { createHistory } from '../../sync/history';
import { createIntentBuffer } from '../../sync/outbox/intents';
import { accountKey, createAccountWatch } from '../../sync/inventory/account';
import { createInventoryTable } from '../../sync/inventory/table';
import { createInventoryWalk } from '../../sync/inventory/walk';
import { createLease, newLeaseOwner } from '../../sync/shared/lease';
import { createLinker } from '../../sync/link';
import { createImporter, createImportItems } from '../../import';
import { createMediaReader } from '../../sync/push/media';
import { openDownload } from '../../remote/transport';
import { createOutbox } from '../../sync/outbox';
import { createPreview } from '../../sync/preview';
import { createPusher } from '../../sync/push';
import { createRecovery } from '../../sync/push/recovery';
import { createRelated } from '../../sync/related';
import { createResync } from '../../sync/resync';
import { createStateStore } from '../../sync/state';
import { createWorker } from '../../sync/worker';
import { pushRefusal } from '../../config/environment';
import { cliRun } from '../../run-mode';
import { SECRET_UNREADABLE } from '../../settings/credentials';
import { getService } from '../../utils';
import type settingsService from '../settings';

type Settings = ReturnType<typeof settingsService>;

/**
 * The parts of the sync, built once and wired together: the outbox and its worker, the pusher,
 * the resync, the inventory of the remote and the drift check. The services (`sync`, `status`)
 * only call them.
 */
export const createEngine = (strapi: Core.Strapi, settings: Settings) => {
  const config = () => strapi.config.get(`plugin::${PLUGIN_ID}`) as PluginConfig;
  const mappings = () => getService('mappings', { strapi });
  const client = settings.remoteClient;
  const limiter = settings.limiter;
  const outbox = createOutbox(strapi);
  const states = createStateStore(strapi);
  const history = createHistory(strapi);
  const alerts = createAlerts(strapi, {
    queueDue: async () => (await outbox.depth()).due,
    canRun: () => settings.canPush(),
  });

  const inventoryTable = createInventoryTable(strapi);
  const inventory = createInventoryWalk({
    strapi,
    table: inventoryTable,
    client,
    background: (fn, onSent) => limiter().background(fn, onSent),
    // A page is asked again sooner than a push is retried: it is cheap and safe to repeat.
    pageRetryDelayMs: (attempt) =>
      Math.min(config().retry.maxMs, 10_000, (config().retry.baseMs / 4) * 2 ** (attempt - 1)) *
      (0.5 + Math.random() / 2),
  });
  const recovery = createRecovery({ walk: inventory, table: inventoryTable });
  const account = createAccountWatch({
    strapi,
    walk: inventory,
    current: async () => {
      const c = await settings.current();
      return settings.credentials.complete(c) ? accountKey(c.baseUrl, c.clientId) : null;
    },
    canRun: () => settings.canPush(),
    enabled: () => config().walkOnLink !== false,
    lease: createLease(strapi, 'inventory', newLeaseOwner()),
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
    client,
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
      // The resync is built below (it needs the worker's wake); the worker runs only after start().
      resync.onRowDone(row, result, end);
      // Refused credentials fail every entry: one alert of their own says so.
      if (result.kind === 'failed' && end === 'failed' && result.httpStatus !== 401)
        alerts.failed(row, result.reason);
    },
    onPushed: (key, result, ms) => {
      history.record(key, result, ms);
      alerts.pushed(result);
    },
    canRun: () => settings.canPush(),
  });
  // Not from the CLI, whose keys may be a CI job's: it says so in its own output (credentialsError).
  if (!cliRun())
    settings.credentials.onUnreadable(() => alerts.secretUnreadable(SECRET_UNREADABLE));
  settings.onChange(() => {
    worker.wake();
    void account.check();
  });
  const resync = createResync({
    strapi,
    outbox,
    states,
    pusher,
    mappings: () => mappings().active(),
    wake: worker.wake,
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
  const importer = createImporter(
    {
      strapi,
      states,
      pusher,
      table: inventoryTable,
      walk: inventory,
      items: createImportItems(strapi),
      client,
      background: (fn) => limiter().background(fn),
      // The files the remote serves are fetched behind its rate limit, like its API.
      mediaFetch: (url, init) => limiter().wrap(openDownload)(url, init),
      mappings: () => mappings().active(),
      config,
    },
    createLease(strapi, 'import', newLeaseOwner())
  );
  const drift = createDrift({
    strapi,
    walk: inventory,
    states,
    client,
    enqueue: async (items) => {
      await outbox.enqueue(items);
      worker.wake();
    },
    refusal: () => pushRefusal(config()),
  });
  const reconcile = createReconcileSchedule({
    strapi,
    config: () => config().reconcile,
    check: () => drift.check(),
    repair: (groups) => drift.repair(groups),
    record: drift.recordScheduled,
  });

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
        .map((m) => ({ uid: m.contentType, resource: m.resource }));
      const read = Object.keys(strapi.contentTypes)
        .filter((uid) => !mapped.some((m) => m.uid === uid) && related.isRead(uid))
        .map((uid) => ({ uid }));
      return [...mapped, ...read];
    },
    wake: () => worker.wake(),
  });

  /** Locales of a document in the database and in the sync state (after a delete, only the state knows them). */
  const localesOf = async (uid: string, documentId: string) => {
    const rows: Array<{ locale?: string | null }> = await strapi.db
      .query(uid as UID.Schema)
      .findMany({ select: ['locale'], where: { documentId } });
    return [
      ...new Set([
        ...rows.map((r) => r.locale ?? ''),
        ...(await states.localesOf(uid, documentId)),
      ]),
    ];
  };

  return {
    config,
    mappings,
    coalesce,
    resourceOf,
    localesOf,
    outbox,
    states,
    history,
    alerts,
    inventoryTable,
    inventory,
    account,
    related,
    pusher,
    preview,
    worker,
    resync,
    linker,
    importer,
    drift,
    reconcile,
    intents,
    catchUp,
  };
};

export type Engine = ReturnType<typeof createEngine>;
