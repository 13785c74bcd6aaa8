import { resync, status } from './automation';
import mappings from './mappings';
import settings from './settings';
import sync from './sync';

export default { mappings, settings, sync, status, resync };
