import type { Core } from '@strapi/strapi';
import type { CheckDrift, GetDrift, RepairDrift } from '../../../shared/contracts/drift';
import { PLUGIN_ID } from '../permissions';
import { failureOf } from '../sync/shared/db-error';
import { DRIFT_GROUPS } from '../sync/drift/report';
import { withLabelsIn } from './labels';
import { getService, type Context } from '../utils';
import { yup } from '@strapi/utils';
import type { DriftGroup } from '../sync/drift';
import { bodySchema, invalid, validate } from './validate';

const service = (strapi: Core.Strapi) => getService('sync', { strapi });

const NOT_GROUPS = `groups must be a non-empty array of ${DRIFT_GROUPS.map((g) => `"${g}"`).join(', ')}.`;

const repairSchema = bodySchema(
  {
    groups: yup
      .array()
      .of(
        yup
          .mixed<DriftGroup>()
          .oneOf([...DRIFT_GROUPS], NOT_GROUPS)
          .defined(NOT_GROUPS)
      )
      .typeError(NOT_GROUPS)
      .required(NOT_GROUPS)
      .min(1, NOT_GROUPS),
  },
  '{ groups: ["missing" | "changed" | "notOurs" | "membership"] }'
);

/** A check running in this process: a second click gets the same one. */
let checking: Promise<unknown> | null = null;

export default ({ strapi }: { strapi: Core.Strapi }) => ({
  async get(ctx: Context) {
    const kept = await service(strapi).drift();
    const reconcile = strapi.config.get(`plugin::${PLUGIN_ID}.reconcile`) as {
      cron: string;
      repair: string;
    } | null;
    const body: GetDrift.Response = {
      // Entries are shown by their label in the Content Manager, with a link to them.
      report: kept.report
        ? await withLabelsIn(strapi, kept.report, ['missing', 'changed', 'membership'])
        : null,
      lastRepair: kept.lastRepair,
      scheduled: kept.scheduled,
      checking: Boolean(checking),
      reconcile: { cron: reconcile?.cron ?? null, repair: reconcile?.repair ?? null },
    };
    ctx.body = body;
  },

  async check(ctx: Context) {
    // The walk and the check run in the background; a failure is logged once and the last report stays.
    checking ??= service(strapi)
      .check()
      .catch((err: unknown) =>
        strapi.log.warn(`[location-content] the check of the remote failed: ${failureOf(err)}`)
      )
      .finally(() => (checking = null));
    const body: CheckDrift.Response = { checking: true };
    ctx.body = body;
  },

  async repair(ctx: Context) {
    const { groups } = await validate(repairSchema, ctx.request.body);
    const kept = await service(strapi).drift();
    if (!kept.report) throw invalid('There is no drift report yet: check the remote first.');
    const body: RepairDrift.Response = {
      outcome: await service(strapi).repair({
        groups: [...new Set(groups)],
      }),
    };
    ctx.body = body;
  },
});
