import type { Core, UID } from '@strapi/strapi';
import type { ListMappings, MappingView } from '../../../shared/contracts/mappings';
import { getService, isLocalized, type Context } from '../utils';

/** The mappings of config/plugins as the admin shows them: read-only, with each problem. */
export function mappingsForAdmin(strapi: Core.Strapi): MappingView[] {
  const views = getService('mappings', { strapi }).list();
  return views.map((view) => {
    const model = strapi.contentTypes[view.contentType as UID.ContentType];
    return {
      index: view.index,
      contentType: view.contentType,
      displayName: model?.info?.displayName ?? view.contentType,
      kind: model?.kind ?? null,
      localized: isLocalized(model),
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
  async list(ctx: Context) {
    ctx.body = { mappings: mappingsForAdmin(strapi) } satisfies ListMappings.Response;
  },
});
