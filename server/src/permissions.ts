/** RBAC actions of the plugin, declared in the contract the admin reads too. */
export { ACTIONS, PLUGIN_ID, permissionUid } from '../../shared/contracts/permissions';
