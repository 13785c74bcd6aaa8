import { database } from './database';

/** Route middlewares of the plugin, named `plugin::location-content.<name>` in routes. */
export default { database };
