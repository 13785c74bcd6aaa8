/**
 * A private, throw-away MariaDB server for tests on a real MySQL-family database. Listens on
 * 127.0.0.1 and a unix socket in its own temp folder, data in that folder, durability off (test
 * data only). The twin of tests/helpers/postgres.ts.
 *
 *   const found = ensureMariadb();              // { bin } or { reason }; installs Debian's package when root
 *   const db = await startServer(found.bin);    // { host, port, user, password, database, env, stop() }
 *
 * As root the server runs as the `mysql` user (created by Debian's package), or as `nobody`.
 */
import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, chownSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Connection, ConnectionOptions } from 'mysql2/promise';
import { freePort, serverOwner } from './local-server';

export interface MariadbBin {
  server: string;
  installDb: string;
}
export interface MariadbServer {
  host: string;
  port: number;
  user: string;
  password: string;
  database: string;
  dir: string;
  env: Record<string, string>;
  kill(): Promise<void>;
  restart(): Promise<void>;
  stop(): Promise<void>;
}

const SERVERS = ['mariadbd', 'mysqld'];
const INSTALLERS = ['mariadb-install-db', 'mysql_install_db'];

const which = (name: string) => {
  const found = spawnSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' });
  return found.status === 0 ? found.stdout.trim() : null;
};

function findBin(): MariadbBin | undefined {
  const dirs = [
    process.env.MARIADB_BIN,
    '/usr/sbin',
    '/usr/bin',
    '/usr/local/bin',
    '/usr/local/sbin',
  ].filter((d): d is string => Boolean(d));
  const inDir = (names: string[]) => {
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
export function ensureMariadb({ install = true }: { install?: boolean } = {}): {
  bin?: MariadbBin;
  reason?: string;
} {
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

const mysql = (): typeof import('mysql2/promise') => require('mysql2/promise');

const connect = (port: number, extra: ConnectionOptions = {}): Promise<Connection> =>
  mysql().createConnection({
    host: '127.0.0.1',
    port,
    user: 'root',
    password: 'root',
    ...extra,
  });

async function waitForServer(
  port: number,
  child: ChildProcess,
  log: () => string,
  timeoutMs = 60_000
) {
  const end = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null)
      throw new Error(`mariadbd exited (${child.exitCode}): ${log().slice(-1500)}`);
    try {
      const conn = await connect(port);
      await conn.end();
      return;
    } catch (caught) {
      const err = caught as Error & { errno?: number };
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
export async function startServer(
  bin: MariadbBin,
  { database = 'strapi_test' }: { database?: string } = {}
): Promise<MariadbServer> {
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
  let child: ChildProcess | undefined;
  const launch = async () => {
    out = '';
    const started = spawn(bin.server, args, { stdio: ['ignore', 'pipe', 'pipe'], cwd: dir });
    child = started;
    for (const s of [started.stdout, started.stderr])
      s.on('data', (c) => (out = (out + c).slice(-20_000)));
    await waitForServer(port, started, () => out);
  };
  const halt = async (signal: NodeJS.Signals) => {
    const running = child;
    if (!running || running.exitCode !== null) return;
    const exited = new Promise((r) => running.once('exit', r));
    running.kill(signal);
    await exited;
  };
  await launch();
  const stop = async () => {
    await halt('SIGKILL').catch(() => undefined);
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    // Root by socket has no password yet (unix_socket auth as the OS user): over TCP it needs one.
    const conn = await mysql()
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
