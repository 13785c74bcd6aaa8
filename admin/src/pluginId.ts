export { PLUGIN_ID } from '../../shared/contracts/permissions';
