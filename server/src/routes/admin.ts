import { ACTIONS, PLUGIN_ID, permissionUid } from '../permissions';

type Action = (typeof ACTIONS)[keyof typeof ACTIONS];

/** Every admin route checks a permission on the server, reads included. */
const route = (method: 'GET' | 'POST' | 'PUT', path: string, handler: string, action: Action) => ({
  method,
  path,
  handler,
  config: {
    middlewares: [`plugin::${PLUGIN_ID}.database`],
    policies: [
      'admin::isAuthenticatedAdmin',
      { name: 'admin::hasPermissions', config: { actions: [permissionUid(action)] } },
    ],
  },
});

const { readSettings, updateSettings, readSync, triggerSync } = ACTIONS;

export default {
  type: 'admin',
  routes: [
    route('GET', '/settings', 'settings.get', readSettings),
    route('PUT', '/settings', 'settings.update', updateSettings),
    // Sends the saved secret to the remote: only for who may change it.
    route('POST', '/settings/test', 'settings.test', updateSettings),
    route('POST', '/alerts/test', 'settings.testAlert', updateSettings),
    route('GET', '/mappings', 'mappings.list', readSync),
    route('GET', '/status', 'sync.status', readSync),
    route('GET', '/entries/:contentType/:documentId', 'sync.entry', readSync),
    route('GET', '/entries/:contentType/:documentId/history', 'sync.history', readSync),
    route('GET', '/entries/:contentType/:documentId/preview', 'sync.preview', readSync),
    route('POST', '/push', 'sync.push', triggerSync),
    route('POST', '/resync', 'sync.resync', triggerSync),
    route('POST', '/retry-failed', 'sync.retryFailed', triggerSync),
    route('GET', '/inventory', 'inventory.status', readSync),
    route('POST', '/inventory', 'inventory.run', triggerSync),
    // A proposal names entries of every mapped type: for who may push them.
    route('GET', '/link', 'inventory.proposal', triggerSync),
    route('POST', '/link', 'inventory.confirm', triggerSync),
    // An import writes entries of every mapped type: for who may push them, its reads included.
    route('GET', '/import', 'import.progress', triggerSync),
    route('POST', '/import/dry-run', 'import.dryRun', triggerSync),
    route('POST', '/import', 'import.start', triggerSync),
    route('GET', '/drift', 'drift.get', readSync),
    route('POST', '/drift/check', 'drift.check', triggerSync),
    route('POST', '/drift/repair', 'drift.repair', triggerSync),
  ],
};
