/**
 * globalSetup / globalTeardown of the integration-postgres and integration-mariadb projects: one
 * throw-away server per jest run, its address in LC_TEST_DB_<KIND> for the workers (started after this).
 */
const { ensurePostgres, startCluster } = require('./postgres');
const { ensureMariadb, startServer } = require('./mariadb');

const kindOf = (projectConfig) => String(projectConfig.displayName?.name ?? projectConfig.displayName ?? '').replace(/^integration-/, '');

async function setup(_globalConfig, projectConfig) {
  const kind = kindOf(projectConfig);
  const envName = `LC_TEST_DB_${kind.toUpperCase()}`;
  if (process.env[envName]) return;
  const t0 = Date.now();
  let server;
  if (kind === 'postgres') {
    const found = ensurePostgres();
    if (!found.bin) throw new Error(`integration-postgres: ${found.reason}`);
    const pg = await startCluster(found.bin);
    server = { handle: pg, info: { client: 'postgres', host: pg.host, port: pg.port, user: pg.user, password: pg.password } };
  } else if (kind === 'mariadb') {
    const found = ensureMariadb();
    if (!found.bin) throw new Error(`integration-mariadb: ${found.reason}`);
    const db = await startServer(found.bin);
    server = { handle: db, info: { client: 'mysql', host: db.host, port: db.port, user: db.user, password: db.password } };
  } else {
    throw new Error(`db-global-setup: unknown project ${projectConfig.displayName?.name}`);
  }
  process.env[envName] = JSON.stringify(server.info);
  globalThis.__LC_TEST_DB_SERVERS__ = [...(globalThis.__LC_TEST_DB_SERVERS__ ?? []), server.handle];
  if (process.env.LC_TEST_DB_VERBOSE) console.log(`\n[test-db] ${kind} on 127.0.0.1:${server.info.port} in ${Date.now() - t0} ms`);
}

async function teardown() {
  for (const handle of globalThis.__LC_TEST_DB_SERVERS__ ?? []) await handle.stop();
  globalThis.__LC_TEST_DB_SERVERS__ = [];
}

module.exports = setup;
module.exports.teardown = teardown;
