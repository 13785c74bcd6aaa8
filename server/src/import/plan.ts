import { errors } from '@strapi/utils';
import type { ResourceKind } from '../remote/types';
import type {
  ImportOptions,
  ImportPlan,
  ImportPlanGroup,
  ImportSample,
} from '../../../shared/contracts/import';
import { ORDER, type ImportContext, type ImportDeps } from './context';
import { put } from './fields';
import { invert, type Inverted } from './inverse';

const PLURAL: Record<ResourceKind, string> = {
  category: 'categories',
  pinpoint: 'pinpoints',
  event: 'events',
  list: 'lists',
};

/** The data of a sample as words where the job would write ids (related entries, files). */
function sampleData(inv: Inverted): Record<string, unknown> {
  const data = structuredClone(inv.data);
  for (const m of inv.media) put(data, m.at, `download ${m.url}`);
  for (const t of inv.tagEntries)
    put(
      data,
      t.at,
      t.tags.map((tag) => `the ${t.target} entry whose ${t.key} is "${tag}" (found or created)`)
    );
  for (const r of inv.relations) put(data, r.at, r.many ? r.words : (r.words[0] ?? null));
  return data;
}

/**
 * The dry run: for each resource, the objects no entry owns, the content type that would receive
 * them, a few entries as they would be written, and every mapped field that cannot be imported.
 * Reads the inventory and the database only (the account is walked first if it never was).
 */
export function createImportPlanner(deps: ImportDeps, ctx: ImportContext) {
  const plan = async (options: ImportOptions = {}): Promise<ImportPlan> => {
    if (!(await deps.walk.lastCompleteAt())) await deps.walk.walkAll();
    const completeAt = await deps.walk.lastCompleteAt();
    if (!completeAt)
      throw new errors.ApplicationError(
        'The remote inventory could not be walked: see the walk on the dashboard.'
      );
    const samples = Math.max(0, Math.min(20, options.samples ?? 3));
    const unowned = await deps.items.unownedByResource();
    const groups: ImportPlanGroup[] = [];
    for (const resource of ORDER) {
      const mapping = ctx.mappingOf(resource);
      const group: ImportPlanGroup = {
        resource,
        contentType: mapping?.contentType ?? null,
        count: unowned[resource],
        wouldFail: 0,
        blocked: mapping ? null : `no active mapping takes ${PLURAL[resource]}`,
        notImportable: [],
        samples: [],
      };
      groups.push(group);
      if (!mapping) continue;
      const fields = ctx.planOf(mapping);
      group.blocked = fields.blocked;
      group.notImportable = fields.notImportable;
      if (fields.blocked) continue;
      const real = ctx.lookups(
        async (eventId) => (await deps.items.get('event', eventId))?.pinpointId ?? undefined
      );
      // An object the import takes before this one (its category, its pinpoint) will have an entry.
      const lookups = Object.assign({}, real, {
        ownerOf: async (kind: ResourceKind, id: number) => {
          const owner = await real.ownerOf(kind, id);
          if (owner) return owner;
          const target = ctx.mappingOf(kind);
          if (!target || ctx.planOf(target).blocked) return null;
          const [held] = await deps.table.page(kind, id - 1, 1);
          return held?.remoteId === id
            ? { contentType: target.contentType, documentId: '', locale: '' }
            : null;
        },
      });
      for (let after = 0; ;) {
        const rows = await deps.table.page(resource as ResourceKind, after, 200);
        if (!rows.length) break;
        after = rows[rows.length - 1].remoteId;
        for (const row of rows) {
          if (await deps.states.isRemoteIdClaimed(resource, row.remoteId)) continue;
          const inv = await invert(fields, row.remoteId, row.fields, lookups);
          if (inv.problems.length) group.wouldFail += 1;
          if (group.samples.length < samples) {
            const sample: ImportSample = {
              remoteId: row.remoteId,
              name: row.name,
              data: sampleData(inv),
              problems: inv.problems,
              warnings: inv.warnings,
            };
            group.samples.push(sample);
          }
        }
      }
    }
    return {
      inventoryCompleteAt: new Date(completeAt).toISOString(),
      locale: options.locale ?? (await ctx.defaultLocale()),
      publish: options.publish === true,
      groups,
      total: groups.reduce((n, g) => n + (g.contentType && !g.blocked ? g.count : 0), 0),
    };
  };
  return { plan };
}
