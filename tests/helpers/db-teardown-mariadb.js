// globalTeardown of the integration-mariadb project (tests/helpers/db-global-setup.js).
module.exports = () => require('./db-global-setup').teardown('mariadb');
