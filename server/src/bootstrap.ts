import type { Core } from '@strapi/strapi';
import { pushEnvironment } from './config/environment';
import type { PluginConfig } from './config/types';
import { ACTIONS, PLUGIN_ID } from './permissions';
import { cliRun } from './run-mode';
import { SECRET_UNREADABLE } from './settings/credentials';
import { getService } from './utils';

const bootstrap = async ({ strapi }: { strapi: Core.Strapi }) => {
  await strapi.service('admin::permission').actionProvider.registerMany([
    {
      section: 'plugins',
      displayName: 'Read settings',
      uid: ACTIONS.readSettings,
      subCategory: 'settings',
      pluginName: PLUGIN_ID,
    },
    {
      section: 'plugins',
      displayName: 'Change settings',
      uid: ACTIONS.updateSettings,
      subCategory: 'settings',
      pluginName: PLUGIN_ID,
    },
    {
      section: 'plugins',
      displayName: 'Read sync status',
      uid: ACTIONS.readSync,
      subCategory: 'sync',
      pluginName: PLUGIN_ID,
    },
    {
      section: 'plugins',
      displayName: 'Push and resync',
      uid: ACTIONS.triggerSync,
      subCategory: 'sync',
      pluginName: PLUGIN_ID,
    },
  ]);
  getService('mappings', { strapi }).report();
  await getService('mappings', { strapi }).checkPrecision();
  const environment = pushEnvironment(strapi.config.get(`plugin::${PLUGIN_ID}`) as PluginConfig);
  if (!environment.pushing)
    strapi.log.warn(
      `[location-content] environment "${environment.name}" is not in pushIn (${environment.pushIn!.join(', ')}): changes are recorded, nothing is pushed`
    );
  // Before the first push: a secret opened by a key that is no longer the first is sealed again.
  // Not by the CLI: a CI job's APP_KEYS may differ from the servers', which would lose the secret.
  if (!cliRun()) {
    const { credentials } = getService('settings', { strapi });
    // The alerts say when the secret cannot be read; not from the CLI, whose keys may be a CI
    // job's: it says so in its own output (credentialsError).
    credentials.onUnreadable(() =>
      getService('alerts', { strapi }).secretUnreadable(SECRET_UNREADABLE)
    );
    await credentials.reseal();
  }
  await getService('sync', { strapi }).start();
};

export default bootstrap;
