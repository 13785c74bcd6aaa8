// globalTeardown of the integration-postgres project (tests/helpers/db-global-setup.js).
module.exports = () => require('./db-global-setup').teardown('postgres');
