import type { Core } from '@strapi/strapi';
import { createAlerts } from '../alerts';
import { createImporter } from '../import';
import { createDrift } from '../sync/drift';
import { createHistory } from '../sync/history';
import { createInventory } from '../sync/inventory';
import { createLinker } from '../sync/link';
import { createPreview } from '../sync/preview';
import { createRelated } from '../sync/related';
import { createResync } from '../sync/resync';
import { createPusher } from '../sync/push';
import { createStateStore } from '../sync/state';
import { createWorker } from '../sync/worker';
import mappings from './mappings';
import outbox from './outbox';
import settings from './settings';
import status from './status';
import sync from './sync';

/** A service that is its room's part, built with the app (each reaches the others by getService). */
const part =
  <T>(create: (strapi: Core.Strapi) => T) =>
  ({ strapi }: { strapi: Core.Strapi }) =>
    create(strapi);

/**
 * The plugin's services. `sync` is the public face scripts call (README "Services"); the others
 * are the sync's capabilities, one per room of server/src/sync, reached through `getService`.
 */
export default {
  mappings,
  settings,
  status,
  sync,
  outbox,
  state: part(createStateStore),
  worker: part(createWorker),
  push: part(createPusher),
  related: part(createRelated),
  resync: part(createResync),
  history: part(createHistory),
  preview: part(createPreview),
  inventory: part(createInventory),
  link: part(createLinker),
  drift: part(createDrift),
  import: part(createImporter),
  alerts: part(createAlerts),
};
