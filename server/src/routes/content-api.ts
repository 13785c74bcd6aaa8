import { PLUGIN_ID } from '../permissions';

/**
 * For scripts and CI, with a Strapi API token. Strapi derives each route's action from its handler
 * (`plugin::location-content.status.find`, `...resync.create`): a custom token is given them in
 * Settings > API Tokens; a read-only token passes only on actions named find/findOne, so it may read
 * the status and never start a resync.
 */
export default {
  type: 'content-api',
  routes: [
    {
      method: 'GET',
      path: '/status',
      handler: 'status.find',
      config: { policies: [], middlewares: [`plugin::${PLUGIN_ID}.database`] },
    },
    {
      method: 'POST',
      path: '/resync',
      handler: 'resync.create',
      config: { policies: [], middlewares: [`plugin::${PLUGIN_ID}.database`] },
    },
  ],
};
