import type { Core } from '@strapi/strapi';
import type { ListMappings, MappingView } from '../../../shared/contracts/mappings';
import { getService } from '../utils';

/** The mappings of config/plugins as the admin shows them: read-only, with each problem. */
export function mappingsForAdmin(strapi: Core.Strapi): MappingView[] {
  const views = getService('mappings', { strapi }).list();
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
    ctx.body = { mappings: mappingsForAdmin(strapi) } satisfies ListMappings.Response;
  },
});
