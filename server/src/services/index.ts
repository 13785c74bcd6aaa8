import mappings from './mappings';
import settings from './settings';
import status from './status';
import sync from './sync';

export default { mappings, settings, status, sync };
