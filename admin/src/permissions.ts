import { ACTIONS, permissionUid, type Action } from '../../shared/contracts/permissions';

/** The server checks these actions on every route; the admin hides what it would refuse. */
const permission = (action: Action) => [{ action: permissionUid(action), subject: null }];

export const PERMISSIONS = {
  readSettings: permission(ACTIONS.readSettings),
  updateSettings: permission(ACTIONS.updateSettings),
  readSync: permission(ACTIONS.readSync),
  triggerSync: permission(ACTIONS.triggerSync),
};

/** Pairs whose last action words differ, so useRBAC's `can…` names do not collide. */
export const SETTINGS_PERMISSIONS = [...PERMISSIONS.readSettings, ...PERMISSIONS.updateSettings]; // canRead, canUpdate
export const SYNC_PERMISSIONS = [...PERMISSIONS.readSync, ...PERMISSIONS.triggerSync]; // canRead, canTrigger
