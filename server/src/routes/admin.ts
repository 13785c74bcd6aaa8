import { ACTIONS, permissionUid } from '../permissions';

const guard = (action: (typeof ACTIONS)[keyof typeof ACTIONS]) => ({
  policies: ['admin::isAuthenticatedAdmin', { name: 'admin::hasPermissions', config: { actions: [permissionUid(action)] } }],
});

export default {
  type: 'admin',
  routes: [
    { method: 'GET', path: '/status', handler: 'sync.status', config: guard(ACTIONS.readSync) },
    { method: 'GET', path: '/entries/:contentType/:documentId', handler: 'sync.entry', config: guard(ACTIONS.readSync) },
    { method: 'POST', path: '/push', handler: 'sync.push', config: guard(ACTIONS.triggerSync) },
    { method: 'POST', path: '/resync', handler: 'sync.resync', config: guard(ACTIONS.triggerSync) },
    { method: 'POST', path: '/retry-failed', handler: 'sync.retryFailed', config: guard(ACTIONS.triggerSync) },
  ],
};
