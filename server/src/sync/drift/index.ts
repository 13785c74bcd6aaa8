/**
 * Drift: the inventory compared with the sync states (missing, changed, not ours, membership),
 * repaired on demand or on a schedule.
 */
import type { Core } from '@strapi/strapi';
import { errors } from '@strapi/utils';
import type {
  DriftGroup,
  DriftReport,
  RepairOutcome,
  ScheduledRun,
} from '../../../../shared/contracts/drift';
import { PLUGIN_ID } from '../../permissions';
import { createDriftCheck } from './check';
import { createDriftRepair } from './repair';
import { createReconcileSchedule } from './schedule';

export type { DriftGroup, DriftReport, RepairOutcome } from '../../../../shared/contracts/drift';
export { DRIFT_GROUPS } from './repair';

const STORE_KEY = 'drift';

export interface DriftStored {
  report: DriftReport | null;
  lastRepair: RepairOutcome | null;
  /** the last scheduled run, by whichever instance ran it */
  scheduled: ScheduledRun | null;
}

/** Check the remote against Strapi, keep the report, repair from it. */
export function createDrift(strapi: Core.Strapi) {
  const store = () => strapi.store({ type: 'plugin', name: PLUGIN_ID });
  const runCheck = createDriftCheck(strapi);
  const runRepair = createDriftRepair(strapi);
  let checking: Promise<DriftReport> | undefined;

  const load = async (): Promise<DriftStored> => ({
    report: null,
    lastRepair: null,
    scheduled: null,
    ...((await store().get({ key: STORE_KEY })) as Partial<DriftStored> | null),
  });
  const save = async (patch: Partial<DriftStored>) =>
    store().set({ key: STORE_KEY, value: Object.assign({}, await load(), patch) });

  return {
    /** One check at a time: a second caller shares the one running. */
    check: (options: { fresh?: boolean } = {}) =>
      (checking ??= runCheck(options)
        .then((report) => save({ report }).then(() => report))
        .finally(() => (checking = undefined))),
    async repair(groups: DriftGroup[]) {
      const { report } = await load();
      if (!report)
        throw new errors.ApplicationError('No drift report yet: check the remote first.');
      const outcome = await runRepair(report, groups);
      await save({ lastRepair: outcome });
      return outcome;
    },
    stored: load,
    recordScheduled: (run: ScheduledRun) => save({ scheduled: run }),
    /** The scheduled check (and repair), on Strapi's cron. */
    reconcile: createReconcileSchedule(strapi),
  };
}
