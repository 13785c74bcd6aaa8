/**
 * The globalSetup / globalTeardown of the integration-postgres and integration-mariadb projects: one
 * throw-away server per jest run, its address in LC_TEST_DB_<KIND> for the workers (started after this).
 */
const { mkdirSync, rmSync, writeFileSync } = require('node:fs');
const path = require('node:path');
const { ensurePostgres, startCluster } = require('./postgres');
const { infoFile } = require('./test-db');
const { ensureMariadb, startServer } = require('./mariadb');

/** jest runs a globalSetup module once however many projects name it: one module per kind (db-setup-<kind>.js). */
async function setup(kind) {
  const envName = `LC_TEST_DB_${kind.toUpperCase()}`;
  if (process.env[envName]) return;
  const t0 = Date.now();
  let server;
  if (kind === 'postgres') {
    const found = ensurePostgres();
    if (!found.bin) throw new Error(`integration-postgres: ${found.reason}`);
    const pg = await startCluster(found.bin);
    server = {
      handle: pg,
      info: {
        client: 'postgres',
        host: pg.host,
        port: pg.port,
        user: pg.user,
        password: pg.password,
      },
    };
  } else if (kind === 'mariadb') {
    const found = ensureMariadb();
    if (!found.bin) throw new Error(`integration-mariadb: ${found.reason}`);
    const db = await startServer(found.bin);
    server = {
      handle: db,
      info: { client: 'mysql', host: db.host, port: db.port, user: db.user, password: db.password },
    };
  } else {
    throw new Error(`db-global-setup: unknown kind ${kind}`);
  }
  process.env[envName] = JSON.stringify(server.info);
  const file = infoFile(kind, process.pid);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, process.env[envName]);
  server.file = file;
  globalThis.__LC_TEST_DB_SERVERS__ = [...(globalThis.__LC_TEST_DB_SERVERS__ ?? []), server];
  if (process.env.LC_TEST_DB_VERBOSE)
    console.log(`\n[test-db] ${kind} on 127.0.0.1:${server.info.port} in ${Date.now() - t0} ms`);
}

async function teardown(kind) {
  for (const server of globalThis.__LC_TEST_DB_SERVERS__ ?? []) {
    if (server.info.client !== (kind === 'postgres' ? 'postgres' : 'mysql')) continue;
    rmSync(server.file, { force: true });
    await server.handle.stop();
  }
  globalThis.__LC_TEST_DB_SERVERS__ = (globalThis.__LC_TEST_DB_SERVERS__ ?? []).filter(
    (s) => s.info.client !== (kind === 'postgres' ? 'postgres' : 'mysql')
  );
}

module.exports = { setup, teardown };
