import type { Core } from '@strapi/strapi';
import { createImporter, createImportItems, type Importer } from '../import';
import { openDownload } from '../remote/transport';
import { pluginConfig } from '../sync/shared/config';
import { createLease, newLeaseOwner } from '../sync/shared/lease';
import { getService } from '../utils';

/** The import service (import/): remote objects no entry owns into drafts, as a background job. */
export default ({ strapi }: { strapi: Core.Strapi }): Importer => {
  const settings = getService('settings', { strapi });
  const { table, walk } = getService('inventory', { strapi });
  return createImporter(
    {
      strapi,
      states: getService('state', { strapi }),
      pusher: getService('push', { strapi }),
      table,
      walk,
      items: createImportItems(strapi),
      client: settings.remoteClient,
      background: (fn) => settings.limiter().background(fn),
      // The files the remote serves are fetched behind its rate limit, like its API.
      mediaFetch: (url, init) => settings.limiter().wrap(openDownload)(url, init),
      mappings: () => getService('mappings', { strapi }).active(),
      config: () => pluginConfig(strapi),
    },
    createLease(strapi, 'import', newLeaseOwner())
  );
};
