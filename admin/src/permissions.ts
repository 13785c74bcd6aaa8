import { PLUGIN_ID } from './pluginId';

/** Same actions as server/src/permissions.ts; the server checks them on every route, the admin hides what it would refuse. */
const permission = (action: string) => [{ action: `plugin::${PLUGIN_ID}.${action}`, subject: null }];

export const PERMISSIONS = {
  readSettings: permission('settings.read'),
  updateSettings: permission('settings.update'),
  readSync: permission('sync.read'),
  triggerSync: permission('sync.trigger'),
};

/** Pairs whose last action words differ, so useRBAC's `can…` names do not collide. */
export const SETTINGS_PERMISSIONS = [...PERMISSIONS.readSettings, ...PERMISSIONS.updateSettings]; // canRead, canUpdate
export const SYNC_PERMISSIONS = [...PERMISSIONS.readSync, ...PERMISSIONS.triggerSync]; // canRead, canTrigger
