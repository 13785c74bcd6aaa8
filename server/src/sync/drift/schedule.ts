import type { Core } from '@strapi/strapi';
import type { ReconcileConfig } from '../../config/types';
import type { DriftGroup, ScheduledRun } from '../../../../shared/contracts/drift';
import { getService } from '../../utils';
import { pluginConfig } from '../shared/config';
import { failureOf } from '../shared/db-error';
import { createLease } from '../shared/lease';

const RECONCILE_JOB = 'location-content-reconcile';

const GROUPS_BY_REPAIR: Record<ReconcileConfig['repair'], DriftGroup[]> = {
  none: [],
  missing: ['missing'],
  all: ['missing', 'changed', 'membership', 'notOurs'],
};

/**
 * The scheduled check (and repair) of the remote, with Strapi's cron. Every instance sharing
 * the database registers the rule; for each time it fires, the one instance that moves the
 * lease row to that time runs it (one UPDATE whose WHERE only the first can match).
 */
export function createReconcileSchedule(strapi: Core.Strapi) {
  const lease = createLease(strapi, 'reconcile');
  const drift = () => getService('drift', { strapi });
  const config = () => pluginConfig(strapi).reconcile;
  let registered = false;
  /** Firings under way: a slow check outlasts the next firing, and a stop waits for each. */
  const running = new Set<Promise<void>>();

  /** One firing of the rule: run by this instance if it claims it, else nothing. */
  const fire = async (fireDate: Date = new Date()): Promise<ScheduledRun | null> => {
    const cfg = config();
    if (!cfg) return null;
    // A firing on the same second on every instance, whatever the milliseconds each one woke at.
    const slot = Math.floor(fireDate.getTime() / 1000) * 1000;
    if (!(await lease.claimSlot(slot))) return null;
    const run: ScheduledRun = {
      slot: new Date(slot).toISOString(),
      instance: lease.owner,
      startedAt: new Date().toISOString(),
      finishedAt: null,
      outcome: 'running',
      error: null,
      found: null,
      repair: null,
    };
    await drift().recordScheduled(run);
    const work = (async () => {
      try {
        const report = await drift().check();
        run.found = {
          missing: report.byContentType.reduce((n, c) => n + c.missing, 0),
          changed: report.byContentType.reduce((n, c) => n + c.changed, 0),
          membership: report.byContentType.reduce((n, c) => n + c.membership, 0),
          notOurs: Object.values(report.notOursByResource).reduce((a, b) => a + b, 0),
        };
        const groups = GROUPS_BY_REPAIR[cfg.repair];
        if (groups.length) run.repair = await drift().repair(groups);
        run.outcome = 'done';
      } catch (err) {
        run.outcome = 'failed';
        run.error = failureOf(err);
        strapi.log.warn(
          `[location-content] the scheduled check of the remote failed: ${run.error}`
        );
      }
      run.finishedAt = new Date().toISOString();
      await drift().recordScheduled(run);
    })();
    running.add(work);
    await work.finally(() => running.delete(work));
    return run;
  };

  const start = async () => {
    const cfg = config();
    if (!cfg) return;
    await lease.ensure();
    strapi.cron.add({
      [RECONCILE_JOB]: {
        task: (_ctx: unknown, fireDate?: unknown) =>
          fire(fireDate instanceof Date ? fireDate : new Date()),
        options: { rule: cfg.cron },
      },
    });
    registered = true;
  };

  const stop = async () => {
    if (registered) strapi.cron.remove(RECONCILE_JOB);
    registered = false;
    await Promise.allSettled(running);
  };

  return { start, stop, fire };
}
