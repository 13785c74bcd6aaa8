import { PLUGIN_ID } from '../permissions';

const route = (method: 'GET' | 'POST', path: string, handler: string) => ({
  method,
  path,
  handler,
  config: { policies: [], middlewares: [`plugin::${PLUGIN_ID}.database`] },
});

/**
 * For scripts and CI, with a Strapi API token. Strapi derives each route's action from its handler
 * (`plugin::location-content.status.find`, `...resync.create`): a custom token is given them in
 * Settings > API Tokens; a read-only token passes only on actions named find/findOne, so it may read
 * the status and never start a resync.
 */
export default {
  type: 'content-api',
  routes: [route('GET', '/status', 'status.find'), route('POST', '/resync', 'resync.create')],
};
