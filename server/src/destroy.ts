import type { Core } from '@strapi/strapi';
import { PLUGIN_ID } from './permissions';

const destroy = async ({ strapi }: { strapi: Core.Strapi }) => {
  await strapi.plugin(PLUGIN_ID).service('sync').stop();
};

export default destroy;
