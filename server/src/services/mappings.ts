import type { Core, UID } from '@strapi/strapi';
import type { Mapping } from '../config/types';
import { validateMappingFields, type StrapiSchemaLookup } from '../mapping';
import { decimalSourcesOf, NEEDED_SCALE, precisionWarning } from '../mapping/precision';
import { decimalScale } from '../sync/shared/dialect';
import { pluginConfig } from '../sync/shared/config';
import type { MappingView as AdminMappingView } from '../../../shared/contracts/mappings';

/** A mapping as checked here; the admin's view (the contract's) adds what the content type says of itself. */
export type MappingView = Omit<
  AdminMappingView,
  'displayName' | 'kind' | 'localized' | 'draftAndPublish'
>;

/** The mappings of config/plugins checked against the content models; a broken mapping is left out, not guessed. */
export default ({ strapi }: { strapi: Core.Strapi }) => {
  let views: MappingView[] | null = null;
  const getModel: StrapiSchemaLookup = (uid) => strapi.getModel(uid as UID.Schema);
  /** by mapping index, once checkPrecision() ran */
  const warnings = new Map<number, string[]>();

  const check = (): MappingView[] => {
    const config = pluginConfig(strapi);
    return (config.mappings ?? []).map((mapping, index) => {
      const problems = strapi.contentTypes[mapping.contentType as UID.ContentType]
        ? validateMappingFields(mapping, getModel, { index, mappings: config.mappings })
        : [
            `mappings[${index}].contentType: '${mapping.contentType}' is not a content type of this app`,
          ];
      return {
        index,
        contentType: mapping.contentType,
        resource: mapping.resource,
        fields: JSON.parse(JSON.stringify(mapping.fields ?? {})),
        hasTransform: typeof mapping.transform === 'function',
        problems,
        warnings: warnings.get(index) ?? [],
        active: problems.length === 0,
      };
    });
  };

  const list = () =>
    (views ??= check()).map((v) => ({ ...v, warnings: warnings.get(v.index) ?? [] }));

  return {
    list,
    report() {
      for (const p of list().flatMap((v) => v.problems))
        strapi.log.error(`[location-content] ${p} — this mapping is disabled until it is fixed.`);
    },
    // A `decimal` column with fewer than NEEDED_SCALE decimals (a plain one is numeric(10,2) on
    // PostgreSQL and MySQL) rounds positions: said at boot in the log and on the settings page.
    async checkPrecision() {
      const config = pluginConfig(strapi);
      for (const v of views ?? check()) {
        if (!v.active) continue;
        const found: string[] = [];
        for (const source of decimalSourcesOf(config.mappings[v.index], getModel)) {
          const meta = strapi.db.metadata.get(source.owner);
          const attribute = meta?.attributes?.[source.attribute];
          const column =
            (attribute && 'columnName' in attribute ? attribute.columnName : undefined) ??
            source.attribute;
          const scale = meta
            ? await decimalScale(strapi, meta.tableName, column).catch(() => null)
            : null;
          if (scale != null && scale < NEEDED_SCALE)
            found.push(precisionWarning(v.contentType, source, scale));
        }
        warnings.set(v.index, found);
        for (const w of found) strapi.log.warn(`[location-content] ${w}`);
      }
    },
    active(): Mapping[] {
      const config = pluginConfig(strapi);
      return list()
        .filter((v) => v.active)
        .map((v) => config.mappings[v.index]);
    },
    forContentType(uid: string): Mapping | undefined {
      return this.active().find((m) => m.contentType === uid);
    },
  };
};
