import type { Core } from '@strapi/strapi';
import drift from './drift';
import importer from './import';
import inventory from './inventory';
import mappings from './mappings';
import settings from './settings';
import sync from './sync';

/** The content-API side of the status and resync routes: the same answers as the admin's, one code path. */
const status = ({ strapi }: { strapi: Core.Strapi }) => ({ find: sync({ strapi }).status });
const resync = ({ strapi }: { strapi: Core.Strapi }) => ({ create: sync({ strapi }).resync });

export default { drift, import: importer, inventory, mappings, settings, sync, status, resync };
