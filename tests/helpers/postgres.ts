/**
 * PostgreSQL's part of the tests' throw-away servers (tests/helpers/db-server.ts): Debian's
 * binaries, a cluster made by initdb with trust authentication, started and crashed by pg_ctl.
 * initdb refuses to run as root: as root the cluster belongs to the `postgres` user (created by
 * Debian's package), or to `nobody`.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { ensureDbServer, startDbServer, which, type Dialect } from './db-server';

/** The part of `pg` (no type declarations installed) the test helpers use. */
export interface PgClient {
  connect(): Promise<unknown>;
  query(sql: string): Promise<{ rows: Record<string, unknown>[] }>;
  end(): Promise<void>;
}
export const pg = (): {
  Client: new (options: {
    host: string;
    port: number;
    user: string;
    password?: string;
    database: string;
  }) => PgClient;
} => require('pg');

const hasBins = (dir: string) =>
  ['initdb', 'pg_ctl', 'postgres'].every((b) => existsSync(path.join(dir, b)));

/** The binaries folder: PG_BIN, pg_ctl's on the PATH, or Debian's newest. */
function findBin(): string | undefined {
  const candidates: string[] = [];
  if (process.env.PG_BIN) candidates.push(process.env.PG_BIN);
  const onPath = which('pg_ctl');
  if (onPath) {
    const real = spawnSync('readlink', ['-f', onPath], { encoding: 'utf8' }).stdout.trim();
    candidates.push(path.dirname(real || onPath));
  }
  if (existsSync('/usr/lib/postgresql')) {
    for (const v of readdirSync('/usr/lib/postgresql').sort((a, b) => Number(b) - Number(a)))
      candidates.push(`/usr/lib/postgresql/${v}/bin`);
  }
  return candidates.find(hasBins);
}

const postgres: Dialect<string> = {
  what: 'PostgreSQL (initdb, pg_ctl)',
  debianPackage: 'postgresql',
  binVar: 'PG_BIN',
  owners: ['postgres', 'nobody'],
  client: 'postgres',
  // trust authentication: the password is only what config/database.js is given
  user: 'postgres',
  password: 'postgres',
  findBin,
  init(bin, { dir, port, owner }) {
    const data = path.join(dir, 'data');
    const run = (cmd: string, args: string[]) => {
      const [c, a] = owner ? ['runuser', ['-u', owner.name, '--', cmd, ...args]] : [cmd, args];
      execFileSync(c, a, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], cwd: dir });
    };
    run(path.join(bin, 'initdb'), [
      '-D',
      data,
      '-A',
      'trust',
      '-U',
      'postgres',
      '-E',
      'UTF8',
      '--no-sync',
    ]);
    const options = `-c listen_addresses=127.0.0.1 -p ${port} -k ${dir} -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=60`;
    const pgCtl = (args: string[]) => run(path.join(bin, 'pg_ctl'), ['-D', data, ...args]);
    return {
      up: async () =>
        pgCtl(['-o', options, '-l', path.join(dir, 'server.log'), '-w', '-t', '60', 'start']),
      down: async () => pgCtl(['-m', 'immediate', '-w', 'stop']),
    };
  },
  async createDatabase({ port }, database) {
    const client = new (pg().Client)({
      host: '127.0.0.1',
      port,
      user: 'postgres',
      database: 'postgres',
    });
    await client.connect();
    await client.query(`CREATE DATABASE ${database}`);
    await client.end();
  },
};

export const ensurePostgres = (options?: { install?: boolean }) =>
  ensureDbServer(postgres, options);
export const startCluster = (bin: string, options?: { database?: string }) =>
  startDbServer(postgres, bin, options);
