import type { Core } from '@strapi/strapi';
import { yup } from '@strapi/utils';
import type { DryRunImport, GetImport, StartImport } from '../../../shared/contracts/import';
import { RESOURCES } from '../remote/types';
import { getService, type Context } from '../utils';
import { bodySchema, localeField, UID, validate } from './validate';

const uidOf = (resource: string) => {
  const message = `into.${resource} must be a content type uid such as "api::place.place".`;
  return yup.string().nullable().typeError(message).matches(UID, message);
};

// Whether a chosen content type has an active mapping of the resource is the service's check:
// the route, scripts and the CLI get the same 400 for it.
const optionsSchema = bodySchema(
  {
    locale: localeField(),
    publish: yup.boolean().typeError('publish must be true or false.'),
    into: bodySchema(
      Object.fromEntries(RESOURCES.map((r) => [r, uidOf(r)])),
      '{ category?, pinpoint?, event?, list?: content type uid }'
    ).nullable(),
  },
  '{ locale?: string, publish?: boolean, into?: { pinpoint?: uid, … } }'
);

export default ({ strapi }: { strapi: Core.Strapi }) => {
  const service = () => getService('sync', { strapi });
  const options = async (ctx: Context) => {
    const { locale, publish, into } = await validate(optionsSchema, ctx.request.body);
    return { locale: locale || null, publish, into };
  };
  return {
    async progress(ctx: Context) {
      ctx.body = { job: await service().importProgress() } satisfies GetImport.Response;
    },
    async dryRun(ctx: Context) {
      const plan = await service().import({ dryRun: true, ...(await options(ctx)) });
      ctx.body = { plan } satisfies DryRunImport.Response;
    },
    async start(ctx: Context) {
      const job = await service().import({ dryRun: false, ...(await options(ctx)) });
      ctx.body = { job } satisfies StartImport.Response;
    },
  };
};
