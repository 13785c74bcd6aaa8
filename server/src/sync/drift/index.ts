/**
 * Drift: the inventory compared with the sync states (missing, changed, not ours, membership),
 * repaired on demand or on a schedule.
 */
import type { Core } from '@strapi/strapi';
import { PLUGIN_ID } from '../../permissions';
import { createDriftCheck } from './check';
import { createDriftRepair } from './repair';
import { pluginConfig } from '../shared/config';
import type { DriftGroup, DriftReport, RepairOutcome } from './report';
import { createReconcileSchedule, type ScheduledRun } from './schedule';

export type { DriftGroup, DriftReport, RepairOutcome } from './report';
export { DRIFT_GROUPS } from './report';
export { NoInventoryError } from './check';

const STORE_KEY = 'drift';

export interface DriftStored {
  report: DriftReport | null;
  lastRepair: RepairOutcome | null;
  /** the last scheduled run, by whichever instance ran it */
  scheduled: ScheduledRun | null;
}

export class NoDriftReportError extends Error {
  constructor() {
    super('No drift report yet: check the remote first.');
    this.name = 'NoDriftReportError';
  }
}

/** Check the remote against Strapi, keep the report, repair from it. */
export function createDrift(strapi: Core.Strapi) {
  const store = () => strapi.store({ type: 'plugin', name: PLUGIN_ID });
  const runCheck = createDriftCheck(strapi);
  const runRepair = createDriftRepair(strapi);
  let checking: Promise<DriftReport> | undefined;

  const load = async (): Promise<DriftStored> => {
    const v = (await store().get({ key: STORE_KEY })) as Partial<DriftStored> | null;
    return {
      report: v?.report ?? null,
      lastRepair: v?.lastRepair ?? null,
      scheduled: v?.scheduled ?? null,
    };
  };
  const save = async (patch: Partial<DriftStored>) =>
    store().set({ key: STORE_KEY, value: Object.assign({}, await load(), patch) });

  /** One check at a time: a second caller shares the one running. */
  const check = (options: { fresh?: boolean } = {}) =>
    (checking ??= (async () => {
      try {
        const report = await runCheck(options);
        await save({ report });
        return report;
      } finally {
        checking = undefined;
      }
    })());

  const repair = async (groups: DriftGroup[]) => {
    const { report } = await load();
    if (!report) throw new NoDriftReportError();
    const outcome = await runRepair(report, groups);
    await save({ lastRepair: outcome });
    return outcome;
  };

  const recordScheduled = async (run: ScheduledRun) => {
    await save({ scheduled: run });
  };

  /** The scheduled check (and repair), on Strapi's cron. */
  const reconcile = createReconcileSchedule({
    strapi,
    config: () => pluginConfig(strapi).reconcile,
    check: () => check(),
    repair,
    record: recordScheduled,
  });

  return {
    check,
    repair,
    stored: load,
    recordScheduled,
    isChecking: () => Boolean(checking),
    reconcile,
  };
}

export type Drift = ReturnType<typeof createDrift>;
