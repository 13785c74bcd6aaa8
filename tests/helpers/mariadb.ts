/**
 * MariaDB's part of the tests' throw-away servers (tests/helpers/db-server.ts): Debian's
 * mariadbd and its data-folder installer, a root login with the password `root` over TCP, crashed
 * by SIGKILL. As root the server runs as the `mysql` user (created by Debian's package), or as
 * `nobody`.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { Connection, ConnectionOptions } from 'mysql2/promise';
import { ensureDbServer, startDbServer, which, type Dialect } from './db-server';

export interface MariadbBin {
  server: string;
  installDb: string;
}

const SERVERS = ['mariadbd', 'mysqld'];
const INSTALLERS = ['mariadb-install-db', 'mysql_install_db'];

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

const mariadb: Dialect<MariadbBin> = {
  what: 'MariaDB (mariadbd, mariadb-install-db)',
  debianPackage: 'mariadb-server',
  binVar: 'MARIADB_BIN',
  // policy-rc.d: Debian's package would otherwise start a system-wide server of its own.
  installCommand: [
    'sh',
    '-c',
    'printf "#!/bin/sh\\nexit 101\\n" > /usr/sbin/policy-rc.d.lc && chmod +x /usr/sbin/policy-rc.d.lc && [ -e /usr/sbin/policy-rc.d ] || cp /usr/sbin/policy-rc.d.lc /usr/sbin/policy-rc.d; apt-get install -y -qq mariadb-server; rc=$?; rm -f /usr/sbin/policy-rc.d.lc; exit $rc',
  ],
  owners: ['mysql', 'nobody'],
  client: 'mysql',
  user: 'root',
  password: 'root',
  findBin,
  init(bin, { dir, port, owner }) {
    const data = path.join(dir, 'data');
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
      { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], cwd: dir }
    );
    const args = [
      '--no-defaults',
      ...userArgs,
      `--datadir=${data}`,
      '--bind-address=127.0.0.1',
      `--port=${port}`,
      `--socket=${path.join(dir, 'mysqld.sock')}`,
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
    return {
      async up() {
        out = '';
        const started = spawn(bin.server, args, { stdio: ['ignore', 'pipe', 'pipe'], cwd: dir });
        child = started;
        for (const s of [started.stdout, started.stderr])
          s.on('data', (c) => (out = (out + c).slice(-20_000)));
        await waitForServer(port, started, () => out);
      },
      async down() {
        const running = child;
        if (!running || running.exitCode !== null) return;
        const exited = new Promise((r) => running.once('exit', r));
        running.kill('SIGKILL');
        await exited;
      },
    };
  },
  async createDatabase({ dir, port }, database) {
    // Root by socket has no password yet (unix_socket auth as the OS user): over TCP it needs one.
    const conn = await mysql()
      .createConnection({ socketPath: path.join(dir, 'mysqld.sock'), user: 'root' })
      .catch(() => connect(port, { password: '' }));
    await conn.query("ALTER USER 'root'@'localhost' IDENTIFIED BY 'root'");
    await conn.query("CREATE OR REPLACE USER 'root'@'127.0.0.1' IDENTIFIED BY 'root'");
    await conn.query("GRANT ALL PRIVILEGES ON *.* TO 'root'@'127.0.0.1' WITH GRANT OPTION");
    await conn.query(
      `CREATE DATABASE IF NOT EXISTS \`${database}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`
    );
    await conn.end();
  },
};

export const ensureMariadb = (options?: { install?: boolean }) => ensureDbServer(mariadb, options);
export const startServer = (bin: MariadbBin, options?: { database?: string }) =>
  startDbServer(mariadb, bin, options);
