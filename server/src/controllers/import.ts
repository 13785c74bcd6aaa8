import type { Core } from '@strapi/strapi';
import { yup } from '@strapi/utils';
import type { DryRunImport, GetImport, StartImport } from '../../../shared/contracts/import';
import { getService, type Context } from '../utils';
import { bodySchema, localeField, validate } from './validate';

const service = (strapi: Core.Strapi) => getService('sync', { strapi });

const optionsSchema = bodySchema(
  {
    locale: localeField('locale'),
    publish: yup.boolean().typeError('publish must be true or false.'),
  },
  '{ locale?: string, publish?: boolean }'
);

/** Import (remote -> Strapi): the dry run, the job's start and its progress. */
export default ({ strapi }: { strapi: Core.Strapi }) => ({
  async progress(ctx: Context) {
    const body: GetImport.Response = { job: await service(strapi).importProgress() };
    ctx.body = body;
  },

  async dryRun(ctx: Context) {
    const { locale, publish } = await validate(optionsSchema, ctx.request.body);
    const body: DryRunImport.Response = {
      plan: await service(strapi).import({ dryRun: true, locale: locale || null, publish }),
    };
    ctx.body = body;
  },

  async start(ctx: Context) {
    const { locale, publish } = await validate(optionsSchema, ctx.request.body);
    const body: StartImport.Response = {
      job: await service(strapi).import({ dryRun: false, locale: locale || null, publish }),
    };
    ctx.body = body;
  },
});
