/**
 * The inventory of the remote: a background walk of every collection, behind the pushes in the
 * same rate-limited queue, kept a page at a time in the inventory tables. Lost creates, link,
 * drift and import read it; the account watch walks a newly linked account once.
 */
import type { Core } from '@strapi/strapi';
import { getService } from '../../utils';
import { createAccountWatch } from './account';
import { createInventoryTable } from './table';
import { createInventoryWalk } from './walk';

export function createInventory(strapi: Core.Strapi) {
  const settings = () => getService('settings', { strapi });
  const table = createInventoryTable(strapi);
  const walk = createInventoryWalk({
    strapi,
    table,
    client: () => settings().remoteClient(),
    background: (fn, onSent) => settings().limiter().background(fn, onSent),
  });
  return { table, walk, account: createAccountWatch(strapi, walk) };
}
