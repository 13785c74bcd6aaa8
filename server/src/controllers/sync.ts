import type { Core } from '@strapi/strapi';
import { pushEnvironment } from '../config/environment';
import { viewUrlOf } from '../config/view-url';
import type { PluginConfig } from '../config/types';
import { PLUGIN_ID } from '../permissions';
import { withLabels } from './labels';
import { BadRequest, DOCUMENT_ID, handle, objectBody, optionalLocale, UID } from './validate';

const service = (strapi: Core.Strapi) => strapi.plugin(PLUGIN_ID).service('sync');
const mapped = (strapi: Core.Strapi, uid: string) => strapi.plugin(PLUGIN_ID).service('mappings').forContentType(uid);

/** Most documents one "Push selected" may queue: the list view's largest page. */
export const MAX_PUSH = 1000;

/** Sync state is about content: who cannot read a content type in the Content Manager does not see its entries here either. */
const assertCanRead = (ctx: any, uid: string) => {
  const ability = ctx.state.userAbility;
  if (ability && !ability.can('plugin::content-manager.explorer.read', uid)) {
    ctx.forbidden(`You cannot read ${uid} in the Content Manager.`);
    return false;
  }
  return true;
};

const contentTypeParam = (strapi: Core.Strapi, value: unknown, where: string): string => {
  if (typeof value !== 'string' || !UID.test(value)) throw new BadRequest(`${where} must be a content type uid such as "api::place.place".`);
  if (!mapped(strapi, value)) throw new BadRequest(`${value} is not mapped to the Location Content API (see Settings > Location Content).`);
  return value;
};

/** One resync at a time per process: two clicks arriving together get the same job. */
let starting: Promise<unknown> | null = null;

export default ({ strapi }: { strapi: Core.Strapi }) => ({
  async status(ctx: any) {
    const report = await service(strapi).status();
    ctx.body = { ...report, failed: await withLabels(strapi, report.failed) };
  },

  entry: handle(async (ctx) => {
    const contentType = contentTypeParam(strapi, ctx.params.contentType, 'contentType');
    if (!DOCUMENT_ID.test(ctx.params.documentId ?? '')) throw new BadRequest('documentId is not a document id.');
    const locale = optionalLocale(ctx.query.locale, 'locale');
    if (!assertCanRead(ctx, contentType)) return;
    const config = strapi.config.get(`plugin::${PLUGIN_ID}`) as PluginConfig;
    const state = await service(strapi).stateOf({ contentType, documentId: ctx.params.documentId, locale });
    ctx.body = {
      state: state && { ...state, viewUrl: viewUrlOf(config, state.resource, state.remoteId) },
      environment: pushEnvironment(config),
    };
  }),

  preview: handle(async (ctx) => {
    const contentType = contentTypeParam(strapi, ctx.params.contentType, 'contentType');
    if (!DOCUMENT_ID.test(ctx.params.documentId ?? '')) throw new BadRequest('documentId is not a document id.');
    const locale = optionalLocale(ctx.query.locale, 'locale');
    if (!assertCanRead(ctx, contentType)) return;
    ctx.body = { previews: await service(strapi).previewOf({ contentType, documentId: ctx.params.documentId, locale }) };
  }),

  history: handle(async (ctx) => {
    const contentType = contentTypeParam(strapi, ctx.params.contentType, 'contentType');
    if (!DOCUMENT_ID.test(ctx.params.documentId ?? '')) throw new BadRequest('documentId is not a document id.');
    const locale = optionalLocale(ctx.query.locale, 'locale');
    if (!assertCanRead(ctx, contentType)) return;
    ctx.body = { attempts: await service(strapi).historyOf({ contentType, documentId: ctx.params.documentId, locale }) };
  }),

  push: handle(async (ctx) => {
    const body = objectBody(ctx.request.body, ['contentType', 'documentIds', 'locale'], '{ contentType, documentIds, locale? }');
    const contentType = contentTypeParam(strapi, body.contentType, 'contentType');
    const ids = body.documentIds;
    if (!Array.isArray(ids) || ids.length === 0) throw new BadRequest('documentIds must be a non-empty array of document ids.');
    if (ids.length > MAX_PUSH) throw new BadRequest(`documentIds holds ${ids.length} ids: push at most ${MAX_PUSH} at once, or run a resync.`);
    const bad = ids.filter((id) => typeof id !== 'string' || !DOCUMENT_ID.test(id));
    if (bad.length) throw new BadRequest(`documentIds must be strings; not a document id: ${bad.slice(0, 3).map((b) => JSON.stringify(b)).join(', ')}.`);
    const locale = optionalLocale(body.locale, 'locale');
    if (!assertCanRead(ctx, contentType)) return;
    const documentIds = [...new Set(ids as string[])];
    const found = await strapi.db.query(contentType as any).findMany({ select: ['documentId'], where: { documentId: { $in: documentIds } } });
    const present = new Set(found.map((r: any) => r.documentId));
    const missing = documentIds.filter((id) => !present.has(id));
    if (missing.length) throw new BadRequest(`No ${contentType} entry with documentId ${missing.slice(0, 5).join(', ')}${missing.length > 5 ? ` (and ${missing.length - 5} more)` : ''}.`);
    const queued = await service(strapi).pushMany(documentIds.map((documentId) => ({ contentType, documentId, locale })));
    ctx.body = { queued };
  }),

  resync: handle(async (ctx) => {
    const body = objectBody(ctx.request.body, ['dryRun'], '{ dryRun?: boolean }');
    if (body.dryRun !== undefined && typeof body.dryRun !== 'boolean') throw new BadRequest('dryRun must be true or false.');
    if (body.dryRun) {
      const plan = await service(strapi).resync({ dryRun: true });
      const [create, update, remove, failed] = await Promise.all([plan.create, plan.update, plan.delete, plan.failed].map((keys: any[]) => withLabels(strapi, keys)));
      ctx.body = { plan: { ...plan, create, update, delete: remove, failed } };
      return;
    }
    if (!starting) starting = service(strapi).resync().finally(() => (starting = null));
    ctx.body = { job: await starting };
  }),

  async retryFailed(ctx: any) {
    ctx.body = { queued: await service(strapi).retryFailed() };
  },
});
