import type { Core } from '@strapi/strapi';
import { pushEnvironment, pushTarget, viewUrlOf } from '../config/environment';
import { STATUSES, type SyncStatus, type SyncStatusReport } from '../../../shared/contracts/sync';
import { SECRET_UNREADABLE } from '../settings/credentials';
import { getService } from '../utils';
import { explained } from '../middlewares/database';
import { pluginConfig } from '../sync/shared/config';
import type { ResourceKind } from '../remote/types';

const emptyCounts = () =>
  Object.fromEntries(STATUSES.map((s) => [s, 0])) as Record<SyncStatus, number>;

/** The status report of the sync: what the dashboard, the status routes and `sync.status()` answer. */
export default ({ strapi }: { strapi: Core.Strapi }) => ({
  /** Counts, queue, rate limit, resync progress and the first `failedLimit` (100) failed entries. */
  report: (options: { failedLimit?: number } = {}) =>
    // A database that does not answer is said in a sentence (DatabaseUnavailableError), not as knex's statement.
    build(strapi, options).catch(async (err: unknown) => {
      throw await explained(strapi, err);
    }),
});

async function build(
  strapi: Core.Strapi,
  options: { failedLimit?: number }
): Promise<SyncStatusReport> {
  const settings = getService('settings', { strapi });
  const config = () => pluginConfig(strapi);
  const states = getService('state', { strapi });
  const { intents, ...outbox } = getService('outbox', { strapi });
  const counts = emptyCounts();
  const byType = new Map<string, SyncStatusReport['byContentType'][number]>();
  const typeOf = ({ contentType, resource }: { contentType: string; resource: ResourceKind }) =>
    byType.get(contentType) ??
    byType.set(contentType, { contentType, resource, counts: emptyCounts() }).get(contentType)!;
  for (const m of getService('mappings', { strapi }).active()) typeOf(m);
  for (const row of await states.countBy()) {
    counts[row.status] = (counts[row.status] ?? 0) + row.n;
    const t = typeOf(row);
    t.counts[row.status] = (t.counts[row.status] ?? 0) + row.n;
  }
  const failed = await states.listByStatus('failed', options.failedLimit ?? 100);
  const saved = await settings.credentials.get();
  await intents.flush();
  // Pending: every entry on its way, the ones queued for their first push too (no state yet).
  for (const row of await states.countQueuedFirstPushes()) {
    const t = byType.get(row.contentType);
    if (!t) continue; // a content type no longer mapped: its rows are dropped by the worker
    counts.pending += row.n;
    t.counts.pending += row.n;
  }
  const q = await outbox.depth();
  const lim = settings.limiter().stats();
  const kept = await getService('drift', { strapi }).stored();
  return {
    counts,
    byContentType: [...byType.values()],
    queue: { ...q, inFlight: getService('worker', { strapi }).stats().inFlight },
    rateLimit: { pauses: lim.pauses, pausedUntil: lim.pausedUntil, ...config().rateLimit },
    resync: await getService('resync', { strapi }).progress(),
    inventory: await getService('inventory', { strapi }).walk.progress(),
    import: await getService('import', { strapi }).progress(),
    reconcile: {
      cron: config().reconcile?.cron ?? null,
      repair: config().reconcile?.repair ?? null,
      lastRun: kept.scheduled,
      lastCheckAt: kept.report?.checkedAt ?? null,
    },
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
    configured: settings.credentials.complete(saved),
    credentialsError: settings.credentials.secretUnreadable() ? SECRET_UNREADABLE : null,
    recording: intents.failure(),
    environment: pushEnvironment(config()),
    target: pushTarget(saved),
  };
}
