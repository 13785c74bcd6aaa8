import type { Core } from '@strapi/strapi';
import { createPusher, type Pusher } from '../sync/push';
import { createMediaReader } from '../sync/push/media';
import { createRecovery } from '../sync/push/recovery';
import { pluginConfig } from '../sync/shared/config';
import { getService } from '../utils';

/** The push service (sync/push): one entry to the remote, as the worker and the resync ask. */
export default ({ strapi }: { strapi: Core.Strapi }): Pusher => {
  const config = () => pluginConfig(strapi);
  const { walk, table } = getService('inventory', { strapi });
  return createPusher({
    strapi,
    states: getService('state', { strapi }),
    outbox: getService('outbox', { strapi }),
    recovery: createRecovery({ walk, table }),
    related: getService('related', { strapi }),
    client: getService('settings', { strapi }).remoteClient,
    mappingFor: (uid) => getService('mappings', { strapi }).forContentType(uid),
    readMedia: createMediaReader(strapi, { timeoutMs: config().requestTimeoutMs }),
    maxMediaBytes: () => config().maxMediaBytes,
    requestTimeoutMs: () => config().requestTimeoutMs,
    mediaConcurrency: config().rateLimit.concurrency * 2,
  });
};
