import type { Core } from '@strapi/strapi';
import { getService } from './utils';

const destroy = async ({ strapi }: { strapi: Core.Strapi }) => {
  await getService('sync', { strapi }).stop();
};

export default destroy;
