/** The plugin's id and its RBAC actions: uids are `plugin::location-content.<action>`. */
export const PLUGIN_ID = 'location-content';

export const ACTIONS = {
  readSettings: 'settings.read',
  updateSettings: 'settings.update',
  readSync: 'sync.read',
  triggerSync: 'sync.trigger',
} as const;

export type Action = (typeof ACTIONS)[keyof typeof ACTIONS];

export const permissionUid = (action: Action) => `plugin::${PLUGIN_ID}.${action}` as const;
