import type { Core } from '@strapi/strapi';
import { createAccountWatch } from '../sync/inventory/account';
import { createInventoryTable } from '../sync/inventory/table';
import { createInventoryWalk } from '../sync/inventory/walk';
import { getService } from '../utils';

/**
 * The inventory service (sync/inventory): its tables, the walk of the remote that fills them
 * behind the pushes, and the watch that walks a newly linked account once.
 */
export default ({ strapi }: { strapi: Core.Strapi }) => {
  const settings = () => getService('settings', { strapi });
  const table = createInventoryTable(strapi);
  const walk = createInventoryWalk({
    strapi,
    table,
    client: () => settings().remoteClient(),
    background: (fn, onSent) => settings().limiter().background(fn, onSent),
  });
  return { table, walk, account: createAccountWatch(strapi, walk) };
};
