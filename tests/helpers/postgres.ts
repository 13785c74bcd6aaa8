/**
 * A private, throw-away PostgreSQL cluster for tests that need a real shared database (two
 * Strapi instances on one outbox). Listens on 127.0.0.1 and a unix socket in its own temp folder,
 * trust authentication, fsync off (test data only).
 *
 *   const found = ensurePostgres();             // { bin } or { reason }; installs Debian's package when root
 *   const pg = await startCluster(found.bin);   // { host, port, user, password, database, env, stop() }
 *
 * initdb refuses to run as root: as root the cluster belongs to the `postgres` user (created by
 * Debian's package), or to `nobody`.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, chownSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort, serverOwner } from './local-server';

export interface PgCluster {
  host: string;
  port: number;
  user: string;
  password: string;
  database: string;
  dir: string;
  /** env for the playground's config/database.js */
  env: Record<string, string>;
  stop(): void;
  /** stops the server as a crash would, keeping its data and port */
  down(): void;
  /** starts it again after down() */
  up(): void;
}

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

/** The binaries folder, or why there is none. */
export type Found = { bin: string; reason?: undefined } | { bin?: undefined; reason: string };

const hasBins = (dir: string) =>
  ['initdb', 'pg_ctl', 'postgres'].every((b) => existsSync(path.join(dir, b)));

function findBin(): string | undefined {
  const candidates: string[] = [];
  if (process.env.PG_BIN) candidates.push(process.env.PG_BIN);
  const which = spawnSync('sh', ['-c', 'command -v pg_ctl'], { encoding: 'utf8' });
  if (which.status === 0 && which.stdout.trim()) {
    const real = spawnSync('readlink', ['-f', which.stdout.trim()], {
      encoding: 'utf8',
    }).stdout.trim();
    candidates.push(path.dirname(real || which.stdout.trim()));
  }
  if (existsSync('/usr/lib/postgresql')) {
    for (const v of readdirSync('/usr/lib/postgresql').sort((a, b) => Number(b) - Number(a)))
      candidates.push(`/usr/lib/postgresql/${v}/bin`);
  }
  return candidates.find(hasBins);
}

/** The PostgreSQL binaries folder, installing Debian's `postgresql` when missing and root. */
export function ensurePostgres({ install = true }: { install?: boolean } = {}): Found {
  let bin = findBin();
  if (bin) return { bin };
  const root = typeof process.getuid === 'function' && process.getuid() === 0;
  const aptGet = spawnSync('sh', ['-c', 'command -v apt-get'], { encoding: 'utf8' }).status === 0;
  if (!install || !root || !aptGet) {
    return {
      reason: `PostgreSQL (initdb, pg_ctl) not found${root ? '' : ', and not root to install it'}${aptGet ? '' : ', and no apt-get'}: install it (Debian: apt-get install postgresql) or set PG_BIN`,
    };
  }
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const update = spawnSync('apt-get', ['update', '-qq'], { env, encoding: 'utf8' });
  const inst = spawnSync('apt-get', ['install', '-y', '-qq', 'postgresql'], {
    env,
    encoding: 'utf8',
  });
  bin = findBin();
  if (bin) return { bin };
  return {
    reason: `apt-get install postgresql failed (${update.status}/${inst.status}): ${(inst.stderr || update.stderr || '').slice(-500)}`,
  };
}

export async function startCluster(
  bin: string,
  { database = 'strapi_test' }: { database?: string } = {}
): Promise<PgCluster> {
  const owner = serverOwner(['postgres', 'nobody'], 'the test cluster');
  const dir = mkdtempSync(path.join(os.tmpdir(), 'lc-pg-'));
  const data = path.join(dir, 'data');
  if (owner) chownSync(dir, owner.uid, owner.gid);
  const as = (cmd: string, args: string[]): [string, string[]] =>
    owner ? ['runuser', ['-u', owner.name, '--', cmd, ...args]] : [cmd, args];
  const run = (cmd: string, args: string[]) => {
    const [c, a] = as(cmd, args);
    return execFileSync(c, a, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], cwd: dir });
  };
  const port = await freePort();
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
  /** The server goes away (as a crash would) and comes back on the same port with its data. */
  const down = () => pgCtl(['-m', 'immediate', '-w', 'stop']);
  const up = () =>
    pgCtl(['-o', options, '-l', path.join(dir, 'server.log'), '-w', '-t', '60', 'start']);
  up();
  const stop = () => {
    try {
      down();
    } catch {
      // already down
    }
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    const { Client } = pg();
    const client = new Client({ host: '127.0.0.1', port, user: 'postgres', database: 'postgres' });
    await client.connect();
    await client.query(`CREATE DATABASE ${database}`);
    await client.end();
  } catch (err) {
    stop();
    throw err;
  }
  return {
    host: '127.0.0.1',
    port,
    user: 'postgres',
    password: 'postgres',
    database,
    dir,
    /** env for the playground's config/database.js */
    env: {
      DATABASE_CLIENT: 'postgres',
      DATABASE_HOST: '127.0.0.1',
      DATABASE_PORT: String(port),
      DATABASE_NAME: database,
      DATABASE_USERNAME: 'postgres',
      DATABASE_PASSWORD: 'postgres',
    },
    stop,
    down,
    up,
  };
}
