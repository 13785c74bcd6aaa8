/**
 * Sync state: per (content type, documentId, locale) the remote id, payload hash, status,
 * attempts and last error, and the references a payload used (for dependants).
 */
import type { Core } from '@strapi/strapi';
import { ensureIndex, entryKeyColumns } from '../shared/tables';
import { createStateReads } from './reads';
import { createStateRows } from './record';
import { createStateRefs } from './refs';
import { createStranded } from './stranded';
import { createStateWrites } from './writes';

export type { StateRecord } from './record';

/** Sync state rows through knex: the worker touches them on every push and needs no lifecycles. */
export const createStateStore = (strapi: Core.Strapi) => {
  const rows = createStateRows(strapi);
  const { info, refInfo } = rows;
  const { backfillRefs, writeRefs, dependantsOf } = createStateRefs(rows);
  const reads = createStateReads(rows);

  const ensureIndexes = async () => {
    const { table, col } = info();
    await ensureIndex(strapi, table, 'entry_uq', entryKeyColumns(col), { unique: true });
    await ensureIndex(strapi, table, 'status_idx', [col('status')]);
    // Who holds a remote object (import, link, the inventory's unowned count): without it each
    // look-up scans every state, and an import of 100,000 objects made 100,000 such scans.
    await ensureIndex(strapi, table, 'remote_idx', [col('resource'), col('remoteId')]);
    const refs = refInfo();
    await ensureIndex(strapi, refs.table, 'target_idx', [refs.col('target')]);
    await ensureIndex(strapi, refs.table, 'entry_idx', entryKeyColumns(refs.col));
    await backfillRefs();
  };

  return {
    ensureIndexes,
    ...reads,
    ...createStateWrites(rows, { writeRefs }),
    dependantsOf,
    stranded: createStranded(rows, reads),
  };
};

export type StateStore = ReturnType<typeof createStateStore>;
