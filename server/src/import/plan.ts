import { errors } from '@strapi/utils';
import type { Mapping } from '../config/types';
import { RESOURCES, type ResourceKind } from '../remote/types';
import type { ImportOptions, ImportPlan, ImportPlanGroup } from '../../../shared/contracts/import';
import { getService } from '../utils';
import { failureOf } from '../sync/shared/db-error';
import { candidatesOf, resolveTargets, type ImportContext } from './context';
import { invert, put, type Inverted } from './inverse';

/**
 * A sample as the job writes it: words where the job would write ids (related entries, files),
 * then the mapping's inverse when it has one (an inverse that leaves the object out answers null;
 * one that fails is the object's problem). An object with problems is shown as it was read.
 */
async function sampleOf(
  mapping: Mapping,
  inv: Inverted,
  remote: Record<string, unknown>
): Promise<Record<string, unknown> | null> {
  const data = structuredClone(inv.data);
  for (const m of inv.media) put(data, m.at, `download ${m.url}`);
  for (const t of inv.tagEntries)
    put(
      data,
      t.at,
      t.tags.map((tag) => `the ${t.target} entry whose ${t.key} is "${tag}" (found or created)`)
    );
  for (const r of inv.relations) put(data, r.at, r.many ? r.words : (r.words[0] ?? null));
  if (inv.problems.length || !mapping.inverse) return data;
  try {
    return await mapping.inverse(data, remote);
  } catch (err) {
    inv.problems.push(`the mapping's inverse failed: ${failureOf(err)}`);
    return data;
  }
}

/**
 * The dry run: for each resource, the objects no entry owns, the content type that would receive
 * them, a few entries as they would be written, and every mapped field that cannot be imported.
 * Reads the inventory and the database only (the account is walked first if it never was).
 */
export function createImportPlanner(ctx: ImportContext) {
  const { strapi, items } = ctx;
  const inventory = () => getService('inventory', { strapi });
  const mappings = () => getService('mappings', { strapi }).active();
  const plan = async (options: ImportOptions = {}): Promise<ImportPlan> => {
    if (!(await inventory().walk.lastCompleteAt())) await inventory().walk.walkAll();
    const completeAt = await inventory().walk.lastCompleteAt();
    if (!completeAt)
      throw new errors.ApplicationError(
        'The remote inventory could not be walked: see the walk on the dashboard.'
      );
    const targets = resolveTargets(mappings(), options.into);
    const samples = Math.max(0, Math.min(20, options.samples ?? 3));
    const unowned = await items.unownedByResource();
    const groups: ImportPlanGroup[] = [];
    for (const resource of RESOURCES) {
      const mapping = targets[resource];
      const fields = mapping && ctx.planOf(mapping);
      const plural = resource === 'category' ? 'categories' : `${resource}s`;
      const group: ImportPlanGroup = {
        resource,
        contentType: mapping?.contentType ?? null,
        candidates: candidatesOf(mappings(), resource),
        count: unowned[resource],
        wouldFail: 0,
        blocked: fields ? fields.blocked : `no active mapping takes ${plural}`,
        notImportable: fields?.notImportable ?? [],
        samples: [],
      };
      groups.push(group);
      if (!mapping || !fields || fields.blocked) continue;
      const real = ctx.lookups(undefined);
      // An object the import takes before this one (its category, its pinpoint) will have an entry.
      const lookups = Object.assign({}, real, {
        ownerOf: async (kind: ResourceKind, id: number) => {
          const owner = await real.ownerOf(kind, id);
          if (owner) return owner;
          const target = targets[kind];
          if (!target || ctx.planOf(target).blocked) return null;
          const [held] = await inventory().table.page(kind, id - 1, 1);
          return held?.remoteId === id
            ? { contentType: target.contentType, documentId: '', locale: '' }
            : null;
        },
      });
      for (let after = 0; ;) {
        // Who owns each object is asked in the page's own query, not once per object.
        const rows = await inventory().table.page(resource, after, 200, true);
        if (!rows.length) break;
        after = rows[rows.length - 1].remoteId;
        for (const row of rows) {
          const inv = await invert(fields, row.remoteId, row.fields, lookups);
          const data = await sampleOf(mapping, inv, row.fields);
          // As the job reports it: skipped, with the reason.
          if (!data) inv.warnings.push("the mapping's inverse leaves it out (returned null)");
          if (inv.problems.length) group.wouldFail += 1;
          if (group.samples.length < samples)
            group.samples.push({
              remoteId: row.remoteId,
              name: row.name,
              data: data ?? {},
              problems: inv.problems,
              warnings: inv.warnings,
            });
        }
      }
    }
    return {
      inventoryCompleteAt: new Date(completeAt).toISOString(),
      locale: await ctx.localeFor(options.locale),
      into: Object.fromEntries(
        RESOURCES.map((r) => [r, targets[r]?.contentType ?? null])
      ) as ImportPlan['into'],
      publish: options.publish === true,
      groups,
      total: groups.reduce((n, g) => n + (g.blocked ? 0 : g.count), 0),
    };
  };
  return { plan };
}
