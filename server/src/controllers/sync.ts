import type { Core, UID } from '@strapi/strapi';
import type {
  GetEntry,
  GetStatus,
  PushEntries,
  Resync,
  ResyncProgress,
  RetryFailed,
} from '../../../shared/contracts/sync';
import { getService, type Context } from '../utils';
import { pushEnvironment, viewUrlOf } from '../config/environment';
import { pluginConfig } from '../sync/shared/config';
import { withLabels, withLabelsIn } from './labels';
import { yup } from '@strapi/utils';
import {
  bodySchema,
  contentTypeField,
  DOCUMENT_ID,
  invalid,
  localeField,
  validate,
} from './validate';

const isMapped = (strapi: Core.Strapi) => (uid: string) =>
  Boolean(getService('mappings', { strapi }).forContentType(uid));

/** Most documents one "Push selected" may queue: the list view's largest page. */
const MAX_PUSH = 1000;

/** Sync state is about content: who cannot read a content type in the Content Manager does not see its entries here either. */
const assertCanRead = (ctx: Context, uid: string) => {
  const ability = ctx.state.userAbility;
  if (ability && !ability.can('plugin::content-manager.explorer.read', uid)) {
    ctx.forbidden(`You cannot read ${uid} in the Content Manager.`);
    return false;
  }
  return true;
};

const NOT_DOCUMENT_ID = 'documentId is not a document id.';

const entrySchema = (strapi: Core.Strapi) =>
  yup.object({
    contentType: contentTypeField(isMapped(strapi)),
    documentId: yup
      .string()
      .typeError(NOT_DOCUMENT_ID)
      .required(NOT_DOCUMENT_ID)
      .matches(DOCUMENT_ID, NOT_DOCUMENT_ID),
    locale: localeField(),
  });

/** The entry named by `:contentType/:documentId?locale=`, or null when the user cannot read it (answered 403). */
const entryParams = async (strapi: Core.Strapi, ctx: Context) => {
  const { contentType, documentId, locale } = await validate(entrySchema(strapi), {
    contentType: ctx.params.contentType,
    documentId: ctx.params.documentId,
    locale: ctx.query.locale,
  });
  if (!assertCanRead(ctx, contentType)) return null;
  return { contentType, documentId, locale: locale || null };
};

const NOT_IDS = 'documentIds must be a non-empty array of document ids.';

const pushSchema = (strapi: Core.Strapi) =>
  bodySchema(
    {
      contentType: contentTypeField(isMapped(strapi)),
      documentIds: yup
        // No schema per item: the test below names the bad ids in one sentence.
        .array()
        .typeError(NOT_IDS)
        .required(NOT_IDS)
        .min(1, NOT_IDS)
        .max(
          MAX_PUSH,
          ({ value }: { value: unknown[] }) =>
            `documentIds holds ${value.length} ids: push at most ${MAX_PUSH} at once, or run a resync.`
        )
        .test('document-ids', (ids: unknown[] | undefined, { createError }) => {
          const bad = (ids ?? []).filter((id) => typeof id !== 'string' || !DOCUMENT_ID.test(id));
          const shown = bad.slice(0, 3).map((b) => JSON.stringify(b));
          const message = `documentIds must be strings; not a document id: ${shown.join(', ')}.`;
          return !bad.length || createError({ message });
        }),
      locale: localeField(),
    },
    '{ contentType, documentIds, locale? }'
  );

const resyncSchema = bodySchema(
  { dryRun: yup.boolean().typeError('dryRun must be true or false.') },
  '{ dryRun?: boolean }'
);

/** One resync at a time per process: two clicks arriving together get the same job. */
let starting: Promise<ResyncProgress> | null = null;

export default ({ strapi }: { strapi: Core.Strapi }) => {
  const service = () => getService('sync', { strapi });
  const config = () => pluginConfig(strapi);
  /** A read about the entry the route names, for who may read it in the Content Manager. */
  const ofEntry =
    (read: (key: NonNullable<Awaited<ReturnType<typeof entryParams>>>) => Promise<unknown>) =>
    async (ctx: Context) => {
      const key = await entryParams(strapi, ctx);
      if (key) ctx.body = await read(key);
    };

  return {
    async status(ctx: Context) {
      const report = await service().status();
      ctx.body = {
        ...report,
        failed: await withLabels(strapi, report.failed),
      } satisfies GetStatus.Response;
    },

    entry: ofEntry(async (key): Promise<GetEntry.Response> => {
      const state = await service().stateOf(key);
      return {
        state: state && { ...state, viewUrl: viewUrlOf(config(), state.resource, state.remoteId) },
        environment: pushEnvironment(config()),
      };
    }),
    preview: ofEntry(async (key) => ({ previews: await service().previewOf(key) })),
    history: ofEntry(async (key) => ({ attempts: await service().historyOf(key) })),

    async push(ctx: Context) {
      const body = await validate(pushSchema(strapi), ctx.request.body);
      const { contentType } = body;
      const locale = body.locale || null;
      if (!assertCanRead(ctx, contentType)) return;
      // each checked by pushSchema's test
      const documentIds = [...new Set(body.documentIds as string[])];
      const found = await strapi.db
        .query(contentType as UID.Schema)
        .findMany({ select: ['documentId'], where: { documentId: { $in: documentIds } } });
      const present = new Set(found.map((r: { documentId: string }) => r.documentId));
      const missing = documentIds.filter((id) => !present.has(id));
      if (missing.length)
        throw invalid(
          `No ${contentType} entry with documentId ${missing.slice(0, 5).join(', ')}${missing.length > 5 ? ` (and ${missing.length - 5} more)` : ''}.`
        );
      const queued = await service().pushMany(
        documentIds.map((documentId) => ({ contentType, documentId, locale }))
      );
      ctx.body = { queued } satisfies PushEntries.Response;
    },

    async resync(ctx: Context) {
      const body = await validate(resyncSchema, ctx.request.body);
      if (body.dryRun) {
        const plan = await service().resync({ dryRun: true });
        ctx.body = {
          plan: await withLabelsIn(strapi, plan, ['create', 'update', 'delete', 'failed']),
        } satisfies Resync.Response;
        return;
      }
      starting ??= service()
        .resync()
        .finally(() => (starting = null));
      ctx.body = { job: await starting } satisfies Resync.Response;
    },

    async retryFailed(ctx: Context) {
      ctx.body = { queued: await service().retryFailed() } satisfies RetryFailed.Response;
    },
  };
};
