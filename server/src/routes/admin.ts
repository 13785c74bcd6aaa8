import { ACTIONS, PLUGIN_ID, permissionUid } from '../permissions';

const DATABASE_MIDDLEWARE = `plugin::${PLUGIN_ID}.database`;

/** Every admin route checks a permission on the server, reads included. */
const guard = (action: (typeof ACTIONS)[keyof typeof ACTIONS]) => ({
  middlewares: [DATABASE_MIDDLEWARE],
  policies: [
    'admin::isAuthenticatedAdmin',
    { name: 'admin::hasPermissions', config: { actions: [permissionUid(action)] } },
  ],
});

export default {
  type: 'admin',
  routes: [
    {
      method: 'GET',
      path: '/settings',
      handler: 'settings.get',
      config: guard(ACTIONS.readSettings),
    },
    {
      method: 'PUT',
      path: '/settings',
      handler: 'settings.update',
      config: guard(ACTIONS.updateSettings),
    },
    // Sends the saved secret to the remote: only for who may change it.
    {
      method: 'POST',
      path: '/settings/test',
      handler: 'settings.test',
      config: guard(ACTIONS.updateSettings),
    },
    {
      method: 'POST',
      path: '/alerts/test',
      handler: 'settings.testAlert',
      config: guard(ACTIONS.updateSettings),
    },
    { method: 'GET', path: '/mappings', handler: 'mappings.list', config: guard(ACTIONS.readSync) },
    { method: 'GET', path: '/status', handler: 'sync.status', config: guard(ACTIONS.readSync) },
    {
      method: 'GET',
      path: '/entries/:contentType/:documentId',
      handler: 'sync.entry',
      config: guard(ACTIONS.readSync),
    },
    {
      method: 'GET',
      path: '/entries/:contentType/:documentId/history',
      handler: 'sync.history',
      config: guard(ACTIONS.readSync),
    },
    {
      method: 'GET',
      path: '/entries/:contentType/:documentId/preview',
      handler: 'sync.preview',
      config: guard(ACTIONS.readSync),
    },
    { method: 'POST', path: '/push', handler: 'sync.push', config: guard(ACTIONS.triggerSync) },
    { method: 'POST', path: '/resync', handler: 'sync.resync', config: guard(ACTIONS.triggerSync) },
    {
      method: 'POST',
      path: '/retry-failed',
      handler: 'sync.retryFailed',
      config: guard(ACTIONS.triggerSync),
    },
    {
      method: 'GET',
      path: '/inventory',
      handler: 'inventory.status',
      config: guard(ACTIONS.readSync),
    },
    {
      method: 'POST',
      path: '/inventory',
      handler: 'inventory.run',
      config: guard(ACTIONS.triggerSync),
    },
    // A proposal names entries of every mapped type: for who may push them.
    {
      method: 'GET',
      path: '/link',
      handler: 'inventory.proposal',
      config: guard(ACTIONS.triggerSync),
    },
    {
      method: 'POST',
      path: '/link',
      handler: 'inventory.confirm',
      config: guard(ACTIONS.triggerSync),
    },
    // An import writes entries of every mapped type: for who may push them, its reads included.
    {
      method: 'GET',
      path: '/import',
      handler: 'import.progress',
      config: guard(ACTIONS.triggerSync),
    },
    {
      method: 'POST',
      path: '/import/dry-run',
      handler: 'import.dryRun',
      config: guard(ACTIONS.triggerSync),
    },
    {
      method: 'POST',
      path: '/import',
      handler: 'import.start',
      config: guard(ACTIONS.triggerSync),
    },
    { method: 'GET', path: '/drift', handler: 'drift.get', config: guard(ACTIONS.readSync) },
    {
      method: 'POST',
      path: '/drift/check',
      handler: 'drift.check',
      config: guard(ACTIONS.triggerSync),
    },
    {
      method: 'POST',
      path: '/drift/repair',
      handler: 'drift.repair',
      config: guard(ACTIONS.triggerSync),
    },
  ],
};
