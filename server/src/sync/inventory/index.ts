/**
 * The inventory of the remote: a background walk of every collection, behind the pushes in the
 * same rate-limited queue, kept a page at a time in the inventory tables. Lost creates, link,
 * drift and import read it; the account watch walks a newly linked account once.
 */
export { accountKey, createAccountWatch } from './account';
export { createInventoryTable, type InventoryRow, type InventoryTable } from './table';
export { createInventoryWalk, type InventoryWalk } from './walk';
