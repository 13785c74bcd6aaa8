import type { Core } from '@strapi/strapi';
import type {
  ConfirmLinks,
  GetInventory,
  GetLinkProposal,
  LinkProposal,
  RunInventory,
} from '../../../shared/contracts/inventory';
import { getService, type Context } from '../utils';
import { withLabelsIn } from './labels';
import { yup } from '@strapi/utils';
import { bodySchema, validate } from './validate';

const service = (strapi: Core.Strapi) => getService('sync', { strapi });

/** Entries are shown by their label in the Content Manager, as failed entries are. */
const labelled = (strapi: Core.Strapi, p: LinkProposal) =>
  withLabelsIn(strapi, p, ['linked', 'ambiguous', 'unmatched']);

const isRemoteId = (v: unknown) => typeof v === 'number' && Number.isSafeInteger(v) && v > 0;

/** Picks for ambiguous entries: entry key -> remote id, or null to skip it. */
const confirmSchema = bodySchema(
  {
    choices: yup
      .mixed<NonNullable<ConfirmLinks.Request['choices']>>()
      .test('choices', (value: unknown, { createError }) => {
        if (value === undefined) return true;
        if (typeof value !== 'object' || value === null || Array.isArray(value))
          return createError({
            message: 'choices must be an object: entry key -> remote id, or null to skip.',
          });
        const bad = Object.entries(value).find(([, v]) => v !== null && !isRemoteId(v));
        return (
          !bad || createError({ message: `choices["${bad[0]}"] must be a remote id or null.` })
        );
      }),
  },
  '{ choices? }'
);

export default ({ strapi }: { strapi: Core.Strapi }) => ({
  async status(ctx: Context) {
    const body: GetInventory.Response = {
      inventory: (await service(strapi).status()).inventory,
    };
    ctx.body = body;
  },

  async run(ctx: Context) {
    // The walk runs in the background; its failure is logged once and shown in the status.
    service(strapi)
      .inventory()
      .catch(() => undefined);
    const body: RunInventory.Response = {
      inventory: (await service(strapi).status()).inventory,
    };
    ctx.body = body;
  },

  async proposal(ctx: Context) {
    const body: GetLinkProposal.Response = {
      proposal: await labelled(strapi, await service(strapi).link({ dryRun: true })),
    };
    ctx.body = body;
  },

  async confirm(ctx: Context) {
    const { choices } = await validate(confirmSchema, ctx.request.body);
    const body: ConfirmLinks.Response = {
      proposal: await labelled(strapi, await service(strapi).link({ dryRun: false, choices })),
    };
    ctx.body = body;
  },
});
