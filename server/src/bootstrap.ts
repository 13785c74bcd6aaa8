import type { Core } from '@strapi/strapi';
import { ACTIONS, PLUGIN_ID } from './permissions';
import { getService } from './utils';

const bootstrap = async ({ strapi }: { strapi: Core.Strapi }) => {
  await strapi.service('admin::permission').actionProvider.registerMany([
    { section: 'plugins', displayName: 'Read settings', uid: ACTIONS.readSettings, subCategory: 'settings', pluginName: PLUGIN_ID },
    { section: 'plugins', displayName: 'Change settings', uid: ACTIONS.updateSettings, subCategory: 'settings', pluginName: PLUGIN_ID },
    { section: 'plugins', displayName: 'Read sync status', uid: ACTIONS.readSync, subCategory: 'sync', pluginName: PLUGIN_ID },
    { section: 'plugins', displayName: 'Push and resync', uid: ACTIONS.triggerSync, subCategory: 'sync', pluginName: PLUGIN_ID },
  ]);
  getService('mappings', { strapi }).report();
  await getService('mappings', { strapi }).checkPrecision();
  await getService('sync', { strapi }).start();
};

export default bootstrap;
