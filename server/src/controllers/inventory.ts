import type { Core } from '@strapi/strapi';
import { yup } from '@strapi/utils';
import type {
  ConfirmLinks,
  GetInventory,
  GetLinkProposal,
  RunInventory,
} from '../../../shared/contracts/inventory';
import type { LinkOptions } from '../../../shared/contracts/sync';
import { getService, type Context } from '../utils';
import { withLabelsIn } from './labels';
import { bodySchema, validate } from './validate';

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

export default ({ strapi }: { strapi: Core.Strapi }) => {
  const service = () => getService('sync', { strapi });
  /** The proposal's entries by their label in the Content Manager, as failed entries are. */
  const proposal = async (options: LinkOptions) =>
    withLabelsIn(strapi, await service().link(options), ['linked', 'ambiguous', 'unmatched']);
  const progress = () => getService('inventory', { strapi }).walk.progress();
  return {
    async status(ctx: Context) {
      ctx.body = { inventory: await progress() } satisfies GetInventory.Response;
    },

    async run(ctx: Context) {
      // The walk runs in the background; its failure is logged once and shown in the status.
      service()
        .inventory()
        .catch(() => undefined);
      ctx.body = { inventory: await progress() } satisfies RunInventory.Response;
    },

    async proposal(ctx: Context) {
      ctx.body = { proposal: await proposal({ dryRun: true }) } satisfies GetLinkProposal.Response;
    },

    async confirm(ctx: Context) {
      const { choices } = await validate(confirmSchema, ctx.request.body);
      ctx.body = {
        proposal: await proposal({ dryRun: false, choices }),
      } satisfies ConfirmLinks.Response;
    },
  };
};
