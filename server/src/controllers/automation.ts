import type { Core } from '@strapi/strapi';
import sync from './sync';

/** The content-API side of the status and resync routes: the same answers as the admin's, one code path. */
export const status = ({ strapi }: { strapi: Core.Strapi }) => ({ find: sync({ strapi }).status });

export const resync = ({ strapi }: { strapi: Core.Strapi }) => ({
  create: sync({ strapi }).resync,
});
