import { PLUGIN_ID } from '../permissions';

const route = (method: 'GET' | 'POST', path: string, handler: string) => ({
  method,
  path,
  handler,
  config: { policies: [], middlewares: [`plugin::${PLUGIN_ID}.database`] },
});

/**
 * For scripts and CI, with an API token. Each route's action comes from its handler (`status.find`,
 * `resync.create`): a read-only token passes only find/findOne, so it reads but never resyncs.
 */
export default {
  type: 'content-api',
  routes: [route('GET', '/status', 'status.find'), route('POST', '/resync', 'resync.create')],
};
