// globalTeardown of the integration-mariadb project (tests/helpers/db-global-setup.ts). Jest compiles this
// file but not what it requires: the helpers come through tsx (tests/helpers/node.js).
const { teardown } = require('./node')('db-global-setup') as typeof import('./db-global-setup');

export default () => teardown('mariadb');
