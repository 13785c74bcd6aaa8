/**
 * --db sqlite|postgres|mariadb (or BENCH_DB): the database the bench's Strapi processes use.
 * For a server, a throw-away one on 127.0.0.1 (tests/helpers/postgres.ts, mariadb.ts), each app
 * with its own database on it, as in the test matrix (tests/helpers/test-db.ts).
 */
const { KINDS } = require('../../tests/helpers/node')('test-db');
const { choiceArg } = require('./common');

const dbArg = () => choiceArg('db', KINDS, 'sqlite');

/** Starts the database server of --db (none for SQLite); `stop()` removes it. */
async function startBenchDb(kind = dbArg()) {
  process.env.LC_TEST_DB = kind;
  if (kind === 'sqlite') return { kind, stop: async () => undefined };
  let handle;
  let info;
  if (kind === 'postgres') {
    const { ensurePostgres, startCluster } = require('../../tests/helpers/node')('postgres');
    const found = ensurePostgres();
    if (!found.bin) throw new Error(found.reason);
    handle = await startCluster(found.bin);
    info = {
      client: 'postgres',
      host: handle.host,
      port: handle.port,
      user: handle.user,
      password: handle.password,
    };
  } else {
    const { ensureMariadb, startServer } = require('../../tests/helpers/node')('mariadb');
    const found = ensureMariadb();
    if (!found.bin) throw new Error(found.reason);
    handle = await startServer(found.bin);
    info = {
      client: 'mysql',
      host: handle.host,
      port: handle.port,
      user: handle.user,
      password: handle.password,
    };
  }
  process.env[`LC_TEST_DB_${kind.toUpperCase()}`] = JSON.stringify(info);
  process.stderr.write(`> ${kind} on 127.0.0.1:${info.port}\n`);
  return { kind, stop: async () => handle.stop() };
}

module.exports = { dbArg, startBenchDb };
