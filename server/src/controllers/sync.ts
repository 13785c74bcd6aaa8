import type { Core } from '@strapi/strapi';
import { PLUGIN_ID } from '../permissions';

const service = (strapi: Core.Strapi) => strapi.plugin(PLUGIN_ID).service('sync');

export default ({ strapi }: { strapi: Core.Strapi }) => ({
  async status(ctx: any) {
    ctx.body = await service(strapi).status();
  },
  async entry(ctx: any) {
    const { contentType, documentId } = ctx.params;
    ctx.body = { state: await service(strapi).stateOf({ contentType, documentId, locale: ctx.query.locale || null }) };
  },
  async push(ctx: any) {
    const { contentType, documentIds, locale } = ctx.request.body ?? {};
    if (typeof contentType !== 'string' || !Array.isArray(documentIds) || !documentIds.every((d: unknown) => typeof d === 'string')) {
      return ctx.badRequest('Expected { contentType: string, documentIds: string[], locale?: string }');
    }
    if (!strapi.plugin(PLUGIN_ID).service('mappings').forContentType(contentType)) {
      return ctx.badRequest(`${contentType} is not mapped to the Location Content API`);
    }
    const queued = await service(strapi).pushMany(documentIds.map((documentId: string) => ({ contentType, documentId, locale })));
    ctx.body = { queued };
  },
  async resync(ctx: any) {
    const dryRun = Boolean(ctx.request.body?.dryRun);
    ctx.body = await service(strapi).resync({ dryRun });
  },
  async retryFailed(ctx: any) {
    ctx.body = { queued: await service(strapi).retryFailed() };
  },
});
