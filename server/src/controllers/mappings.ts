import type { Core, UID } from '@strapi/strapi';
import type { ListMappings, MappingView } from '../../../shared/contracts/mappings';
import { isLocalizedModel } from '../mapping/populate';
import { getService, type Context } from '../utils';

/** The mappings of config/plugins as the admin shows them: read-only, with each problem. */
export function mappingsForAdmin(strapi: Core.Strapi): MappingView[] {
  return getService('mappings', { strapi })
    .list()
    .map((view) => {
      const model = strapi.contentTypes[view.contentType as UID.ContentType];
      return {
        ...view,
        displayName: model?.info?.displayName ?? view.contentType,
        kind: model?.kind ?? null,
        localized: isLocalizedModel(model),
        draftAndPublish: Boolean(model?.options?.draftAndPublish),
      };
    });
}

export default ({ strapi }: { strapi: Core.Strapi }) => ({
  async list(ctx: Context) {
    ctx.body = { mappings: mappingsForAdmin(strapi) } satisfies ListMappings.Response;
  },
});
