import type { Core } from '@strapi/strapi';
import { pushRefusal } from '../config/environment';
import { createDrift } from '../sync/drift';
import { createReconcileSchedule } from '../sync/drift/schedule';
import { pluginConfig } from '../sync/shared/config';
import { getService } from '../utils';

/** The drift service (sync/drift): check the remote against Strapi, repair, on a schedule too. */
export default ({ strapi }: { strapi: Core.Strapi }) => {
  const drift = createDrift({
    strapi,
    walk: getService('inventory', { strapi }).walk,
    states: getService('state', { strapi }),
    client: getService('settings', { strapi }).remoteClient,
    enqueue: async (items) => {
      await getService('outbox', { strapi }).enqueue(items);
      getService('worker', { strapi }).wake();
    },
    refusal: () => pushRefusal(pluginConfig(strapi)),
  });
  const reconcile = createReconcileSchedule({
    strapi,
    config: () => pluginConfig(strapi).reconcile,
    check: () => drift.check(),
    repair: (groups) => drift.repair(groups),
    record: drift.recordScheduled,
  });
  return { ...drift, reconcile };
};
