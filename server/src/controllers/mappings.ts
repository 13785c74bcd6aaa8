import type { Core } from '@strapi/strapi';
import { PLUGIN_ID } from '../permissions';

export interface AdminMappingView {
  index: number;
  contentType: string;
  /** the content type's display name, or its uid when the type does not exist */
  displayName: string;
  kind: 'collectionType' | 'singleType' | null;
  localized: boolean;
  draftAndPublish: boolean;
  resource: string;
  fields: Record<string, unknown>;
  hasTransform: boolean;
  problems: string[];
  /** the mapping works but loses something on this database */
  warnings: string[];
  active: boolean;
}

/** The mappings of config/plugins as the admin shows them: read-only, with each problem. */
export function mappingsForAdmin(strapi: Core.Strapi): AdminMappingView[] {
  const views = strapi.plugin(PLUGIN_ID).service('mappings').list() as Array<Omit<AdminMappingView, 'displayName' | 'kind' | 'localized' | 'draftAndPublish'>>;
  return views.map((view) => {
    const model = strapi.contentTypes[view.contentType as keyof typeof strapi.contentTypes] as any;
    return {
      index: view.index,
      contentType: view.contentType,
      displayName: model?.info?.displayName ?? view.contentType,
      kind: model?.kind ?? null,
      localized: Boolean(model?.pluginOptions?.i18n?.localized),
      draftAndPublish: Boolean(model?.options?.draftAndPublish),
      resource: view.resource,
      fields: view.fields,
      hasTransform: view.hasTransform,
      problems: view.problems,
      warnings: view.warnings,
      active: view.active,
    };
  });
}

export default ({ strapi }: { strapi: Core.Strapi }) => ({
  async list(ctx: any) {
    ctx.body = { mappings: mappingsForAdmin(strapi) };
  },
});
