/** RBAC actions of the plugin; uids are `plugin::location-content.<action>`. */
export const PLUGIN_ID = 'location-content';

export const ACTIONS = {
  readSettings: 'settings.read',
  updateSettings: 'settings.update',
  readSync: 'sync.read',
  triggerSync: 'sync.trigger',
} as const;

export const permissionUid = (action: (typeof ACTIONS)[keyof typeof ACTIONS]) => `plugin::${PLUGIN_ID}.${action}`;
