/**
 * A private, throw-away MariaDB server for tests on a real MySQL-family database. Listens on
 * 127.0.0.1 and a unix socket in its own temp folder, data in that folder, durability off (test
 * data only). The twin of tests/helpers/postgres.js.
 *
 *   const found = ensureMariadb();              // { bin } or { reason }; installs Debian's package when root
 *   const db = await startServer(found.bin);    // { host, port, user, password, database, env, stop() }
 *
 * As root the server runs as the `mysql` user (created by Debian's package), or as `nobody`.
 */
const { execFileSync, spawn, spawnSync } = require('node:child_process');
const { existsSync, mkdtempSync, rmSync, chownSync } = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { freePort, serverOwner } = require('./local-server');

const SERVERS = ['mariadbd', 'mysqld'];
const INSTALLERS = ['mariadb-install-db', 'mysql_install_db'];

const which = (name) => {
  const found = spawnSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' });
  return found.status === 0 ? found.stdout.trim() : null;
};

function findBin() {
  const dirs = [
    process.env.MARIADB_BIN,
    '/usr/sbin',
    '/usr/bin',
    '/usr/local/bin',
    '/usr/local/sbin',
  ].filter(Boolean);
  const inDir = (names) => {
    for (const name of names) {
      for (const dir of dirs) if (existsSync(path.join(dir, name))) return path.join(dir, name);
      const onPath = which(name);
      if (onPath) return onPath;
    }
    return null;
  };
  const server = inDir(SERVERS);
  const installDb = inDir(INSTALLERS);
  return server && installDb ? { server, installDb } : undefined;
}

/** The MariaDB server and its data-folder installer, installing Debian's `mariadb-server` when missing and root. */
function ensureMariadb({ install = true } = {}) {
  let bin = findBin();
  if (bin) return { bin };
  const root = typeof process.getuid === 'function' && process.getuid() === 0;
  const aptGet = which('apt-get') !== null;
  if (!install || !root || !aptGet) {
    return {
      reason: `MariaDB (mariadbd, mariadb-install-db) not found${root ? '' : ', and not root to install it'}${aptGet ? '' : ', and no apt-get'}: install it (Debian: apt-get install mariadb-server) or set MARIADB_BIN`,
    };
  }
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const update = spawnSync('apt-get', ['update', '-qq'], { env, encoding: 'utf8' });
  // policy-rc.d: Debian's package would otherwise start a system-wide server of its own.
  const inst = spawnSync(
    'sh',
    [
      '-c',
      'printf "#!/bin/sh\\nexit 101\\n" > /usr/sbin/policy-rc.d.lc && chmod +x /usr/sbin/policy-rc.d.lc && [ -e /usr/sbin/policy-rc.d ] || cp /usr/sbin/policy-rc.d.lc /usr/sbin/policy-rc.d; apt-get install -y -qq mariadb-server; rc=$?; rm -f /usr/sbin/policy-rc.d.lc; exit $rc',
    ],
    { env, encoding: 'utf8' }
  );
  bin = findBin();
  if (bin) return { bin };
  return {
    reason: `apt-get install mariadb-server failed (${update.status}/${inst.status}): ${(inst.stderr || update.stderr || '').slice(-500)}`,
  };
}

const connect = (port, extra = {}) =>
  require('mysql2/promise').createConnection({
    host: '127.0.0.1',
    port,
    user: 'root',
    password: 'root',
    ...extra,
  });

async function waitForServer(port, child, log, timeoutMs = 60_000) {
  const end = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null)
      throw new Error(`mariadbd exited (${child.exitCode}): ${log().slice(-1500)}`);
    try {
      const conn = await connect(port);
      await conn.end();
      return;
    } catch (err) {
      // Refused credentials: the server is up (the first start, before the root password is set).
      if (err.errno === 1045) return;
      if (Date.now() > end)
        throw new Error(
          `mariadbd did not answer in ${timeoutMs} ms (${err.message}): ${log().slice(-1500)}`
        );
      await new Promise((r) => setTimeout(r, 200));
    }
  }
}

/**
 * Starts a server with a `database` (created) and a root user whose password is `root` over TCP.
 * `stop()` kills it and removes its folder; `kill()` / `restart()` are for tests of a database
 * that goes away and comes back (the data stays).
 */
async function startServer(bin, { database = 'strapi_test' } = {}) {
  const owner = serverOwner(['mysql', 'nobody'], 'the test server');
  const dir = mkdtempSync(path.join(os.tmpdir(), 'lc-mariadb-'));
  const data = path.join(dir, 'data');
  if (owner) chownSync(dir, owner.uid, owner.gid);
  const userArgs = owner ? [`--user=${owner.name}`] : [];
  execFileSync(
    bin.installDb,
    [
      ...userArgs,
      `--datadir=${data}`,
      '--auth-root-authentication-method=normal',
      '--skip-test-db',
      '--skip-name-resolve',
    ],
    {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
      cwd: dir,
    }
  );
  const port = await freePort();
  const socket = path.join(dir, 'mysqld.sock');
  const args = [
    '--no-defaults',
    ...userArgs,
    `--datadir=${data}`,
    '--bind-address=127.0.0.1',
    `--port=${port}`,
    `--socket=${socket}`,
    `--pid-file=${path.join(dir, 'mysqld.pid')}`,
    '--skip-name-resolve',
    '--skip-log-bin',
    '--innodb-flush-log-at-trx-commit=0',
    '--innodb-doublewrite=0',
    '--innodb-buffer-pool-size=64M',
    '--innodb-log-file-size=32M',
    '--max-connections=200',
    '--character-set-server=utf8mb4',
    '--collation-server=utf8mb4_unicode_ci',
  ];
  let out = '';
  let child;
  const launch = async () => {
    out = '';
    child = spawn(bin.server, args, { stdio: ['ignore', 'pipe', 'pipe'], cwd: dir });
    for (const s of [child.stdout, child.stderr])
      s.on('data', (c) => (out = (out + c).slice(-20_000)));
    await waitForServer(port, child, () => out);
  };
  const halt = async (signal) => {
    if (!child || child.exitCode !== null) return;
    const exited = new Promise((r) => child.once('exit', r));
    child.kill(signal);
    await exited;
  };
  await launch();
  const stop = async () => {
    await halt('SIGKILL').catch(() => undefined);
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    // Root by socket has no password yet (unix_socket auth as the OS user): over TCP it needs one.
    const conn = await require('mysql2/promise')
      .createConnection({ socketPath: socket, user: 'root' })
      .catch(() => connect(port, { password: '' }));
    await conn.query("ALTER USER 'root'@'localhost' IDENTIFIED BY 'root'");
    await conn.query("CREATE OR REPLACE USER 'root'@'127.0.0.1' IDENTIFIED BY 'root'");
    await conn.query("GRANT ALL PRIVILEGES ON *.* TO 'root'@'127.0.0.1' WITH GRANT OPTION");
    await conn.query(
      `CREATE DATABASE IF NOT EXISTS \`${database}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`
    );
    await conn.end();
  } catch (err) {
    await stop();
    throw err;
  }
  return {
    host: '127.0.0.1',
    port,
    user: 'root',
    password: 'root',
    database,
    dir,
    /** env for the playground's config/database.js */
    env: {
      DATABASE_CLIENT: 'mysql',
      DATABASE_HOST: '127.0.0.1',
      DATABASE_PORT: String(port),
      DATABASE_NAME: database,
      DATABASE_USERNAME: 'root',
      DATABASE_PASSWORD: 'root',
    },
    /** The server goes away as in a crash (SIGKILL); the data stays for `restart()`. */
    kill: () => halt('SIGKILL'),
    restart: launch,
    stop,
  };
}

module.exports = { ensureMariadb, startServer };
