import type { Core } from '@strapi/strapi';
import { accountKey, createAccountWatch } from '../sync/inventory/account';
import { createInventoryTable } from '../sync/inventory/table';
import { createInventoryWalk } from '../sync/inventory/walk';
import { pluginConfig } from '../sync/shared/config';
import { createLease, newLeaseOwner } from '../sync/shared/lease';
import { getService } from '../utils';

/**
 * The inventory service (sync/inventory): its tables, the walk of the remote that fills them
 * behind the pushes, and the watch that walks a newly linked account once.
 */
export default ({ strapi }: { strapi: Core.Strapi }) => {
  const settings = getService('settings', { strapi });
  const config = () => pluginConfig(strapi);
  const table = createInventoryTable(strapi);
  const walk = createInventoryWalk({
    strapi,
    table,
    client: settings.remoteClient,
    background: (fn, onSent) => settings.limiter().background(fn, onSent),
    // A page is asked again sooner than a push is retried: it is cheap and safe to repeat.
    pageRetryDelayMs: (attempt) =>
      Math.min(config().retry.maxMs, 10_000, (config().retry.baseMs / 4) * 2 ** (attempt - 1)) *
      (0.5 + Math.random() / 2),
  });
  const account = createAccountWatch({
    strapi,
    walk,
    current: async () => {
      const c = await settings.current();
      return settings.credentials.complete(c) ? accountKey(c.baseUrl, c.clientId) : null;
    },
    canRun: () => settings.canPush(),
    enabled: () => config().walkOnLink !== false,
    lease: createLease(strapi, 'inventory', newLeaseOwner()),
  });
  return { table, walk, account };
};
