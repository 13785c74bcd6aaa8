import type { Core } from '@strapi/strapi';
import type { EnqueueItem } from '.';
import type { ResourceKind } from '../../remote/types';
import type { SchemaModel } from '../../mapping/types';
import { isLocalizedModel } from '../../mapping/populate';
import { reasonOf } from '../shared/db-error';
import { modelOf } from '../shared/strapi';

const WRITE_ACTIONS = new Set([
  'create',
  'update',
  'delete',
  'publish',
  'unpublish',
  'discardDraft',
  'clone',
]);

/** The params of a document-service write, as far as the middleware reads them. */
interface WriteParams {
  documentId?: string;
  /** one locale, '*' (every locale), or a list of locales */
  locale?: string | string[];
  status?: string;
  [key: string]: unknown;
}

/**
 * What the middleware reads of Strapi's `Modules.Documents.Middleware.Context`, a union over every
 * uid and action: register.ts hands the middleware to `strapi.documents.use` with one cast.
 */
export interface WriteContext {
  uid: string;
  action: string;
  params?: WriteParams | null;
}

/** What a write resolves to, as far as the middleware reads it (publish & co. give `entries`). */
type WriteResult = { documentId?: string; entries?: Array<{ documentId?: string }> } | null;

interface MiddlewareDeps {
  strapi: Core.Strapi;
  resourceOf: (contentType: string) => ResourceKind | undefined;
  /** a type that is not mapped but that mapped types read through relations */
  isRead: (contentType: string) => boolean;
  /** how long an editor's burst of saves of one entry is coalesced */
  settle: () => { settleMs: number; maxWaitMs: number };
  /** locales a document has, in the database or in the sync state */
  localesOf: (contentType: string, documentId: string) => Promise<string[]>;
  /** Takes a committed change's intents without making the save wait (a promise is awaited, a throw logged). */
  record: (items: EnqueueItem[]) => void | Promise<void>;
}

/** Records the intent of a change once it is done; never calls the remote, never fails the editor's action. */
export function createDocumentMiddleware(deps: MiddlewareDeps) {
  const { strapi } = deps;

  const touchesPublished = (action: string, params: WriteParams, draftAndPublish: boolean) => {
    if (!draftAndPublish) return action !== 'discardDraft';
    // A draft save changes nothing online: only these actions change the published version.
    if (action === 'publish' || action === 'unpublish' || action === 'delete') return true;
    return (action === 'create' || action === 'update') && params.status === 'published';
  };

  const namesOneLocale = (locale: unknown) => typeof locale === 'string' && locale !== '*';
  /** A localized change whose locales must be looked up (default locale, every locale). */
  const needsLookup = (model: SchemaModel | undefined, params: WriteParams) =>
    isLocalizedModel(model) && !namesOneLocale(params.locale);

  /** The intents of a change: at once when nothing has to be looked up (the usual case), else a promise. */
  const intentsOf = (
    ctx: WriteContext,
    model: SchemaModel | undefined,
    resource: ResourceKind | undefined,
    result: unknown
  ): EnqueueItem[] | Promise<EnqueueItem[]> => {
    const params = ctx.params ?? {};
    const written = result as WriteResult | undefined;
    const documentId: string | undefined =
      params.documentId ?? written?.documentId ?? written?.entries?.[0]?.documentId;
    if (!documentId) return [];
    const settle = deps.settle();
    const intentsFor = (locales: string[]) =>
      locales.map((locale) => ({
        contentType: ctx.uid,
        documentId,
        locale,
        resource,
        reason: ctx.action,
        settle,
      }));
    const { locale } = params;
    if (!isLocalizedModel(model)) return intentsFor(['']);
    if (namesOneLocale(locale)) return intentsFor([locale as string]);
    if (!locale) {
      const locales = strapi.plugin('i18n').service('locales');
      return Promise.resolve(locales.getDefaultLocale()).then((l: string) => intentsFor([l]));
    }
    return deps
      .localesOf(ctx.uid, documentId)
      .then((known) => intentsFor(locale === '*' ? known : [...new Set([...locale, ...known])]));
  };

  const failed = (ctx: WriteContext, err: unknown) =>
    strapi.log.error(
      `[location-content] could not queue ${ctx.action} of ${ctx.uid}: ${reasonOf(err)}`
    );

  /** Hands the intents over once the change is committed: never when it rolls back. */
  const record = (ctx: WriteContext, items: EnqueueItem[]): void | Promise<unknown> => {
    if (!items.length) return;
    if (strapi.db.inTransaction()) {
      // Nested, db.transaction() runs this callback at once: registered before the caller goes on.
      // Strapi calls this back with its transaction context (`@strapi/database`'s Callback is any-typed).
      return strapi.db.transaction(async ({ onCommit }: { onCommit: (cb: () => void) => void }) => {
        onCommit(() => {
          Promise.resolve()
            .then(() => deps.record(items))
            .catch((err) => failed(ctx, err));
        });
      });
    }
    return deps.record(items);
  };

  /** Records the intents of a change that succeeded; never throws nor rejects, resolves to `result`. */
  const afterWrite =
    (ctx: WriteContext, model: SchemaModel | undefined, resource: ResourceKind | undefined) =>
    (result: unknown): unknown => {
      const failedWith = (err: unknown) => {
        failed(ctx, err);
        return result;
      };
      try {
        const items = intentsOf(ctx, model, resource, result);
        const pending = Array.isArray(items)
          ? record(ctx, items)
          : items.then((list) => record(ctx, list));
        return pending ? pending.then(() => result, failedWith) : result;
      } catch (err) {
        return failedWith(err);
      }
    };

  return (ctx: WriteContext, next: () => Promise<unknown>) => {
    if (!WRITE_ACTIONS.has(ctx.action)) return next();
    const resource = deps.resourceOf(ctx.uid);
    if (!resource && !deps.isRead(ctx.uid)) return next();
    const model = modelOf(strapi, ctx.uid);
    const params = ctx.params ?? {};
    if (!touchesPublished(ctx.action, params, Boolean(model?.options?.draftAndPublish)))
      return next();
    const done = next();
    const after = afterWrite(ctx, model, resource);
    // Inside the caller's transaction, or with locales to look up, the caller waits until the
    // intents are handed over (an onCommit registered after its commit would never run).
    if (strapi.db.inTransaction() || needsLookup(model, params)) return done.then(after);
    // Otherwise the caller gets Strapi's own promise, and a reaction that runs before the caller's
    // hands the intents over: one more microtask turn before the caller resumes cost a save 5 %.
    done.then(after, () => undefined);
    return done;
  };
}
