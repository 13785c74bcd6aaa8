import drift from './drift';
import importer from './import';
import inventory from './inventory';
import { resync, status } from './automation';
import mappings from './mappings';
import settings from './settings';
import sync from './sync';

export default { drift, import: importer, inventory, mappings, settings, sync, status, resync };
