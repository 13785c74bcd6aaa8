import type { Core } from '@strapi/strapi';
import { yup } from '@strapi/utils';
import type { DryRunImport, GetImport, StartImport } from '../../../shared/contracts/import';
import { getService, type Context } from '../utils';
import { bodySchema, localeField, UID, validate } from './validate';

const service = (strapi: Core.Strapi) => getService('sync', { strapi });

const RESOURCES = ['category', 'pinpoint', 'event', 'list'] as const;
const uidOf = (resource: string) =>
  yup
    .string()
    .nullable()
    .typeError(`into.${resource} must be a content type uid such as "api::place.place".`)
    .matches(UID, `into.${resource} must be a content type uid such as "api::place.place".`);

// Whether a chosen content type has an active mapping of the resource is the service's check:
// the route, scripts and the CLI get the same 400 for it.
const intoField = bodySchema(
  Object.fromEntries(RESOURCES.map((r) => [r, uidOf(r)])),
  '{ category?, pinpoint?, event?, list?: content type uid }'
).nullable();

const optionsSchema = bodySchema(
  {
    locale: localeField('locale'),
    publish: yup.boolean().typeError('publish must be true or false.'),
    into: intoField,
  },
  '{ locale?: string, publish?: boolean, into?: { pinpoint?: uid, … } }'
);

/** Import (remote -> Strapi): the dry run, the job's start and its progress. */
export default ({ strapi }: { strapi: Core.Strapi }) => ({
  async progress(ctx: Context) {
    const body: GetImport.Response = { job: await service(strapi).importProgress() };
    ctx.body = body;
  },

  async dryRun(ctx: Context) {
    const { locale, publish, into } = await validate(optionsSchema, ctx.request.body);
    const body: DryRunImport.Response = {
      plan: await service(strapi).import({ dryRun: true, locale: locale || null, publish, into }),
    };
    ctx.body = body;
  },

  async start(ctx: Context) {
    const { locale, publish, into } = await validate(optionsSchema, ctx.request.body);
    const body: StartImport.Response = {
      job: await service(strapi).import({ dryRun: false, locale: locale || null, publish, into }),
    };
    ctx.body = body;
  },
});
