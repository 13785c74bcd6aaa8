import type { Core, UID } from '@strapi/strapi';
import { isQuiet } from '../import/quiet';
import { createOutbox } from '../sync/outbox';
import { createCatchUp } from '../sync/outbox/catchup';
import { createIntentBuffer } from '../sync/outbox/intents';
import { createDocumentMiddleware } from '../sync/outbox/middleware';
import { pluginConfig } from '../sync/shared/config';
import { keyString } from '../sync/shared/keys';
import { getService } from '../utils';
import { extend } from '../utils/objects';

/**
 * The outbox service: the table of intents (sync/outbox), the buffer that writes editors'
 * intents off the save's path, the document middleware that feeds it, and the catch-up of what a
 * crash lost. Every write wakes the worker.
 */
export default ({ strapi }: { strapi: Core.Strapi }) => {
  const outbox = createOutbox(strapi);
  const worker = () => getService('worker', { strapi });

  // A lone change at the next turn of the event loop, a burst's changes together, within a
  // window shorter than the settle time (their rows are not due before it anyway).
  const intents = createIntentBuffer({
    write: (items) => outbox.enqueue(items),
    written: ({ leading, nextDueAt }) => {
      if (leading) worker().wake();
      // A settling row is not due yet: a timer, not a claim query on every save of a burst.
      else if (nextDueAt != null) worker().wakeAt(nextDueAt);
    },
    windowMs: () => Math.min(50, pluginConfig(strapi).coalesce.settleMs / 2),
    log: (m) => strapi.log.error(`[location-content] ${m}`),
    recovered: (m) => strapi.log.warn(`[location-content] ${m}`),
  });

  /** What a crash loses of those intents is queued again at the next boot. */
  const catchUp = createCatchUp(strapi, outbox);

  /** Locales of a document in the database and in the sync state (after a delete, only the state knows them). */
  const localesOf = async (uid: string, documentId: string) => {
    const rows: Array<{ locale?: string | null }> = await strapi.db
      .query(uid as UID.Schema)
      .findMany({ select: ['locale'], where: { documentId } });
    return [
      ...new Set([
        ...rows.map((r) => r.locale ?? ''),
        ...(await getService('state', { strapi }).localesOf(uid, documentId)),
      ]),
    ];
  };

  /** last change of each entry seen by this instance's middleware */
  const lastChange = new Map<string, number>();

  /** The document service middleware, registered in register(): records intents, nothing more. */
  const middleware = () =>
    createDocumentMiddleware({
      strapi,
      resourceOf: (uid) => getService('mappings', { strapi }).forContentType(uid)?.resource,
      isRead: (uid) => getService('related', { strapi }).isRead(uid),
      settle: () => pluginConfig(strapi).coalesce,
      localesOf,
      record: (items) => {
        // The import's own writes: it links and records the entry itself (import/quiet.ts).
        if (isQuiet()) return;
        // A lone change goes out at once (freshness); one that follows another change of the
        // same entry closely waits for the burst to settle, so 100 quick saves make one or two pushes.
        const { settleMs } = pluginConfig(strapi).coalesce;
        const now = Date.now();
        const paced = items.map((it) => {
          const key = keyString(it);
          const previous = lastChange.get(key);
          lastChange.delete(key);
          lastChange.set(key, now);
          if (lastChange.size > 10_000) lastChange.delete(lastChange.keys().next().value!);
          return previous !== undefined && now - previous < settleMs
            ? it
            : extend(it, { leading: true });
        });
        intents.add(paced);
      },
    });

  return extend(outbox, { intents, catchUp, middleware });
};
