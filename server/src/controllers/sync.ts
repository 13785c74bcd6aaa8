import type { Core } from '@strapi/strapi';
import type {
  GetEntry,
  GetStatus,
  PushEntries,
  Resync,
  ResyncProgress,
  RetryFailed,
} from '../../../shared/contracts/sync';
import { getService } from '../utils';
import { pushEnvironment } from '../config/environment';
import { viewUrlOf } from '../config/view-url';
import type { PluginConfig } from '../config/types';
import { PLUGIN_ID } from '../permissions';
import { withLabels } from './labels';
import { DOCUMENT_ID, invalid, objectBody, optionalLocale, UID } from './validate';

const service = (strapi: Core.Strapi) => getService('sync', { strapi });
const mapped = (strapi: Core.Strapi, uid: string) =>
  getService('mappings', { strapi }).forContentType(uid);

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
  if (typeof value !== 'string' || !UID.test(value))
    throw invalid(`${where} must be a content type uid such as "api::place.place".`);
  if (!mapped(strapi, value))
    throw invalid(
      `${value} is not mapped to the Location Content API (see Settings > Location Content).`
    );
  return value;
};

/** The entry named by `:contentType/:documentId?locale=`, or null when the user cannot read it (answered 403). */
const entryParams = (strapi: Core.Strapi, ctx: any) => {
  const contentType = contentTypeParam(strapi, ctx.params.contentType, 'contentType');
  if (!DOCUMENT_ID.test(ctx.params.documentId ?? ''))
    throw invalid('documentId is not a document id.');
  const locale = optionalLocale(ctx.query.locale, 'locale');
  if (!assertCanRead(ctx, contentType)) return null;
  return { contentType, documentId: ctx.params.documentId as string, locale };
};

/** One resync at a time per process: two clicks arriving together get the same job. */
let starting: Promise<ResyncProgress> | null = null;

export default ({ strapi }: { strapi: Core.Strapi }) => ({
  async status(ctx: any) {
    const report = await service(strapi).status();
    ctx.body = {
      ...report,
      failed: await withLabels(strapi, report.failed),
    } satisfies GetStatus.Response;
  },

  async entry(ctx: any) {
    const key = entryParams(strapi, ctx);
    if (!key) return;
    const config = strapi.config.get(`plugin::${PLUGIN_ID}`) as PluginConfig;
    const state = await service(strapi).stateOf(key);
    ctx.body = {
      state: state && { ...state, viewUrl: viewUrlOf(config, state.resource, state.remoteId) },
      environment: pushEnvironment(config),
    } satisfies GetEntry.Response;
  },

  preview: async (ctx: any) => {
    const key = entryParams(strapi, ctx);
    if (!key) return;
    ctx.body = {
      previews: await service(strapi).previewOf(key),
    };
  },

  history: async (ctx: any) => {
    const key = entryParams(strapi, ctx);
    if (!key) return;
    ctx.body = {
      attempts: await service(strapi).historyOf(key),
    };
  },

  async push(ctx: any) {
    const body = objectBody(
      ctx.request.body,
      ['contentType', 'documentIds', 'locale'],
      '{ contentType, documentIds, locale? }'
    );
    const contentType = contentTypeParam(strapi, body.contentType, 'contentType');
    const ids = body.documentIds;
    if (!Array.isArray(ids) || ids.length === 0)
      throw invalid('documentIds must be a non-empty array of document ids.');
    if (ids.length > MAX_PUSH)
      throw invalid(
        `documentIds holds ${ids.length} ids: push at most ${MAX_PUSH} at once, or run a resync.`
      );
    const bad = ids.filter((id) => typeof id !== 'string' || !DOCUMENT_ID.test(id));
    if (bad.length)
      throw invalid(
        `documentIds must be strings; not a document id: ${bad
          .slice(0, 3)
          .map((b) => JSON.stringify(b))
          .join(', ')}.`
      );
    const locale = optionalLocale(body.locale, 'locale');
    if (!assertCanRead(ctx, contentType)) return;
    const documentIds = [...new Set(ids as string[])];
    const found = await strapi.db
      .query(contentType as any)
      .findMany({ select: ['documentId'], where: { documentId: { $in: documentIds } } });
    const present = new Set(found.map((r: any) => r.documentId));
    const missing = documentIds.filter((id) => !present.has(id));
    if (missing.length)
      throw invalid(
        `No ${contentType} entry with documentId ${missing.slice(0, 5).join(', ')}${missing.length > 5 ? ` (and ${missing.length - 5} more)` : ''}.`
      );
    const queued = await service(strapi).pushMany(
      documentIds.map((documentId) => ({ contentType, documentId, locale }))
    );
    ctx.body = { queued } satisfies PushEntries.Response;
  },

  async resync(ctx: any) {
    const body = objectBody(ctx.request.body, ['dryRun'], '{ dryRun?: boolean }');
    if (body.dryRun !== undefined && typeof body.dryRun !== 'boolean')
      throw invalid('dryRun must be true or false.');
    if (body.dryRun) {
      const plan = await service(strapi).resync({ dryRun: true });
      const [create, update, remove] = await Promise.all(
        [plan.create, plan.update, plan.delete].map((keys) => withLabels(strapi, keys))
      );
      const failed = await withLabels(strapi, plan.failed);
      ctx.body = {
        plan: { ...plan, create, update, delete: remove, failed },
      } satisfies Resync.Response;
      return;
    }
    if (!starting)
      starting = service(strapi)
        .resync()
        .finally(() => (starting = null));
    ctx.body = { job: await starting } satisfies Resync.Response;
  },

  async retryFailed(ctx: any) {
    ctx.body = { queued: await service(strapi).retryFailed() } satisfies RetryFailed.Response;
  },
});
