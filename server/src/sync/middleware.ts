import type { Core } from '@strapi/strapi';
import type { EnqueueItem } from './outbox';
import type { ResourceKind } from '../remote/types';

const WRITE_ACTIONS = new Set(['create', 'update', 'delete', 'publish', 'unpublish', 'discardDraft', 'clone']);

export interface MiddlewareDeps {
  strapi: Core.Strapi;
  resourceOf: (contentType: string) => ResourceKind | undefined;
  /** a type that is not mapped but that mapped types read through relations */
  isRead: (contentType: string) => boolean;
  /** how long an editor's burst of saves of one entry is coalesced */
  settle: () => { settleMs: number; maxWaitMs: number };
  /** locales a document has, in the database or in the sync state */
  localesOf: (contentType: string, documentId: string) => Promise<string[]>;
  record: (items: EnqueueItem[]) => Promise<void>;
}

/**
 * Records the intent of a change, after the change is done. It never calls the remote and
 * never fails the editor's action: the worker reads the entry afterwards.
 */
export function createDocumentMiddleware(deps: MiddlewareDeps) {
  const { strapi } = deps;

  const touchesPublished = (action: string, params: Record<string, any>, draftAndPublish: boolean) => {
    if (!draftAndPublish) return action !== 'discardDraft';
    // A draft save changes nothing online: only these actions change the published version.
    if (action === 'publish' || action === 'unpublish' || action === 'delete') return true;
    return (action === 'create' || action === 'update') && params?.status === 'published';
  };

  const intentsOf = async (ctx: any, result: any): Promise<EnqueueItem[]> => {
    const resource = deps.resourceOf(ctx.uid);
    if (!resource && !deps.isRead(ctx.uid)) return [];
    const model = strapi.getModel(ctx.uid) as any;
    const params = ctx.params ?? {};
    if (!touchesPublished(ctx.action, params, Boolean(model?.options?.draftAndPublish))) return [];

    const documentId: string | undefined = params.documentId ?? result?.documentId ?? result?.entries?.[0]?.documentId;
    if (!documentId) return [];

    let locales: string[];
    if (!model?.pluginOptions?.i18n?.localized) locales = [''];
    else if (params.locale === '*' || Array.isArray(params.locale)) {
      const known = await deps.localesOf(ctx.uid, documentId);
      locales = Array.isArray(params.locale) ? [...new Set([...params.locale, ...known])] : known;
    } else if (typeof params.locale === 'string') locales = [params.locale];
    else locales = [await strapi.plugin('i18n').service('locales').getDefaultLocale()];

    const reason = ctx.action;
    const settle = deps.settle();
    return locales.map((locale) => ({ contentType: ctx.uid, documentId, locale, resource, reason, settle }));
  };

  return async (ctx: any, next: () => Promise<unknown>) => {
    const result = await next();
    if (!WRITE_ACTIONS.has(ctx.action) || (!deps.resourceOf(ctx.uid) && !deps.isRead(ctx.uid))) return result;
    try {
      const items = await intentsOf(ctx, result);
      if (items.length) {
        if (strapi.db.inTransaction()) {
          // The caller's transaction is still open: record once it commits, never if it rolls back.
          await strapi.db.transaction(async ({ onCommit }: any) => {
            onCommit(() => {
              deps.record(items).catch((err) => strapi.log.error(`[location-content] could not queue ${ctx.uid} ${items[0].documentId}: ${err?.message}`));
            });
          });
        } else {
          await deps.record(items);
        }
      }
    } catch (err: any) {
      strapi.log.error(`[location-content] could not queue ${ctx.action} of ${ctx.uid}: ${err?.message ?? err}`);
    }
    return result;
  };
}
