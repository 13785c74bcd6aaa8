import type { Core } from '@strapi/strapi';
import type {
  ConfirmLinks,
  GetInventory,
  GetLinkProposal,
  LinkProposal,
  RunInventory,
} from '../../../shared/contracts/inventory';
import { getService } from '../utils';
import { withLabels } from './labels';
import { invalid, isPlainObject, objectBody } from './validate';

const service = (strapi: Core.Strapi) => getService('sync', { strapi });

/** Entries are shown by their label in the Content Manager, as failed entries are. */
const labelled = async (strapi: Core.Strapi, p: LinkProposal): Promise<LinkProposal> => ({
  ...p,
  linked: await withLabels(strapi, p.linked),
  ambiguous: await withLabels(strapi, p.ambiguous),
  unmatched: await withLabels(strapi, p.unmatched),
});

const choicesOf = (value: unknown): ConfirmLinks.Request['choices'] => {
  if (value === undefined) return undefined;
  if (!isPlainObject(value))
    throw invalid('choices must be an object: entry key -> remote id, or null to skip.');
  for (const [k, v] of Object.entries(value)) {
    if (v !== null && !(typeof v === 'number' && Number.isSafeInteger(v) && v > 0))
      throw invalid(`choices["${k}"] must be a remote id or null.`);
  }
  return value as Record<string, number | null>;
};

export default ({ strapi }: { strapi: Core.Strapi }) => ({
  async status(ctx: any) {
    const body: GetInventory.Response = {
      inventory: (await service(strapi).status()).inventory,
    };
    ctx.body = body;
  },

  async run(ctx: any) {
    // The walk runs in the background; its failure is logged once and shown in the status.
    service(strapi)
      .inventory()
      .catch(() => undefined);
    const body: RunInventory.Response = {
      inventory: (await service(strapi).status()).inventory,
    };
    ctx.body = body;
  },

  async proposal(ctx: any) {
    const body: GetLinkProposal.Response = {
      proposal: await labelled(strapi, await service(strapi).link({ dryRun: true })),
    };
    ctx.body = body;
  },

  async confirm(ctx: any) {
    const input = objectBody(ctx.request.body, ['choices'], '{ choices? }');
    const choices = choicesOf(input.choices);
    const body: ConfirmLinks.Response = {
      proposal: await labelled(strapi, await service(strapi).link({ dryRun: false, choices })),
    };
    ctx.body = body;
  },
});
