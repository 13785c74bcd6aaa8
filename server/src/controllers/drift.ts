import type { Core } from '@strapi/strapi';
import { yup } from '@strapi/utils';
import type { CheckDrift, GetDrift, RepairDrift } from '../../../shared/contracts/drift';
import { DRIFT_GROUPS, type DriftGroup } from '../sync/drift';
import { pluginConfig } from '../sync/shared/config';
import { failureOf } from '../sync/shared/db-error';
import { getService, type Context } from '../utils';
import { withLabelsIn } from './labels';
import { bodySchema, invalid, validate } from './validate';

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

export default ({ strapi }: { strapi: Core.Strapi }) => {
  const service = () => getService('sync', { strapi });
  return {
    async get(ctx: Context) {
      const kept = await service().drift();
      const { reconcile } = pluginConfig(strapi);
      ctx.body = {
        // Entries are shown by their label in the Content Manager, with a link to them.
        report: kept.report
          ? await withLabelsIn(strapi, kept.report, ['missing', 'changed', 'membership'])
          : null,
        lastRepair: kept.lastRepair,
        scheduled: kept.scheduled,
        checking: Boolean(checking),
        reconcile: { cron: reconcile?.cron ?? null, repair: reconcile?.repair ?? null },
      } satisfies GetDrift.Response;
    },

    async check(ctx: Context) {
      // The walk and the check run in the background; a failure is logged once and the last report stays.
      checking ??= service()
        .check()
        .catch((err: unknown) =>
          strapi.log.warn(`[location-content] the check of the remote failed: ${failureOf(err)}`)
        )
        .finally(() => (checking = null));
      ctx.body = { checking: true } satisfies CheckDrift.Response;
    },

    async repair(ctx: Context) {
      const { groups } = await validate(repairSchema, ctx.request.body);
      if (!(await service().drift()).report)
        throw invalid('There is no drift report yet: check the remote first.');
      ctx.body = {
        outcome: await service().repair({ groups: [...new Set(groups)] }),
      } satisfies RepairDrift.Response;
    },
  };
};
