import mappings from './mappings';
import sync from './sync';

export default { mappings, sync };
