import type { Core } from '@strapi/strapi';
import { pushEnvironment } from './config/environment';
import { ACTIONS, PLUGIN_ID } from './permissions';
import { cliRun } from './run-mode';
import { SECRET_UNREADABLE } from './settings/credentials';
import { pluginConfig } from './sync/shared/config';
import { getService } from './utils';

const bootstrap = async ({ strapi }: { strapi: Core.Strapi }) => {
  await strapi.service('admin::permission').actionProvider.registerMany(
    (
      [
        ['Read settings', ACTIONS.readSettings, 'settings'],
        ['Change settings', ACTIONS.updateSettings, 'settings'],
        ['Read sync status', ACTIONS.readSync, 'sync'],
        ['Push and resync', ACTIONS.triggerSync, 'sync'],
      ] as const
    ).map(([displayName, uid, subCategory]) => ({
      section: 'plugins',
      displayName,
      uid,
      subCategory,
      pluginName: PLUGIN_ID,
    }))
  );
  getService('mappings', { strapi }).report();
  await getService('mappings', { strapi }).checkPrecision();
  const environment = pushEnvironment(pluginConfig(strapi));
  if (!environment.pushing)
    strapi.log.warn(
      `[location-content] environment "${environment.name}" is not in pushIn (${environment.pushIn!.join(', ')}): changes are recorded, nothing is pushed`
    );
  // Not in the CLI, whose APP_KEYS may be a CI job's: re-sealing would lose the secret. The
  // alerts say when the saved secret cannot be read.
  if (!cliRun()) {
    const { credentials } = getService('settings', { strapi });
    credentials.onUnreadable(() =>
      getService('alerts', { strapi }).secretUnreadable(SECRET_UNREADABLE)
    );
    await credentials.reseal();
  }
  await getService('sync', { strapi }).start();
};

export default bootstrap;
