/**
 * Import (remote -> Strapi): the objects of the remote account that no entry owns become entries
 * of the mapped content types, read backwards through the same field map that pushes them
 * (inverse.ts; context.ts: the target of each resource). The dry run (plan.ts) says what would be
 * written and what cannot be; the job (job.ts) imports in dependency order, each object exactly
 * once (entry.ts, keyed by its remote id in the import's table, items.ts; its files, media.ts),
 * reading the events' pinpoints first (links.ts). Every imported entry is linked to its object at
 * once by its sync state, with the hash of the payload it would push: publishing it unchanged
 * calls nothing.
 */
import type { Core } from '@strapi/strapi';
import { createImportContext } from './context';
import { createImportJob } from './job';
import { createImportPlanner } from './plan';

export function createImporter(strapi: Core.Strapi) {
  const ctx = createImportContext(strapi);
  return {
    ...createImportPlanner(ctx),
    ...createImportJob(ctx),
    ensureIndexes: ctx.items.ensureIndexes,
  };
}
