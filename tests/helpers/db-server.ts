/**
 * The throw-away database servers of the tests, in one shape: a private server on 127.0.0.1 (and
 * a unix socket) with its data in its own temp folder, durability off (test data only), found or
 * installed the same way, stopped, crashed and restarted the same way. What differs per database
 * (binaries, data-folder init, start and crash, the first database) is a `Dialect`:
 * tests/helpers/postgres.ts and mariadb.ts.
 *
 *   const found = ensurePostgres();             // { bin } or { reason }; installs Debian's package when root
 *   const db = await startCluster(found.bin);   // a DbServer: { host, port, ..., env, down(), up(), stop() }
 */
import { spawnSync } from 'node:child_process';
import { chownSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort, serverOwner, type ServerOwner } from './local-server';

export interface DbServer {
  host: string;
  port: number;
  user: string;
  password: string;
  database: string;
  dir: string;
  /** env for the playground's config/database.js */
  env: Record<string, string>;
  /** the server goes away as a crash would; its data and port stay for up() */
  down(): Promise<void>;
  /** starts it again after down() */
  up(): Promise<void>;
  /** stops it and removes its folder */
  stop(): Promise<void>;
}

/** The binaries, or why there are none. */
export type Found<Bin> = { bin: Bin; reason?: undefined } | { bin?: undefined; reason: string };

/** A running server's two moves; `down` is a crash (no clean shutdown). */
export interface Running {
  up(): Promise<void>;
  down(): Promise<void>;
}

export interface Dialect<Bin> {
  /** what is missing, as the reason names it: 'PostgreSQL (initdb, pg_ctl)' */
  what: string;
  debianPackage: string;
  /** the variable that points at the binaries */
  binVar: string;
  /** Debian's install command when `apt-get install -y -qq <package>` is not enough */
  installCommand?: string[];
  /** as root: who may own the server (it refuses root), the first that exists */
  owners: string[];
  /** DATABASE_CLIENT of the playground's config/database.js */
  client: 'postgres' | 'mysql';
  user: string;
  password: string;
  findBin(): Bin | undefined;
  /** initialises the data folder under `dir`: how to start the server and crash it */
  init(bin: Bin, at: { dir: string; port: number; owner: ServerOwner | null }): Running;
  /** on the running server: `database`, and the login of `user`/`password` over TCP */
  createDatabase(at: { dir: string; port: number }, database: string): Promise<void>;
}

export const which = (name: string): string | null => {
  const found = spawnSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' });
  return found.status === 0 ? found.stdout.trim() : null;
};

/** The dialect's binaries, installing its Debian package when missing and root. */
export function ensureDbServer<Bin>(
  dialect: Dialect<Bin>,
  { install = true }: { install?: boolean } = {}
): Found<Bin> {
  let bin = dialect.findBin();
  if (bin) return { bin };
  const root = typeof process.getuid === 'function' && process.getuid() === 0;
  const aptGet = which('apt-get') !== null;
  if (!install || !root || !aptGet) {
    return {
      reason: `${dialect.what} not found${root ? '' : ', and not root to install it'}${aptGet ? '' : ', and no apt-get'}: install it (Debian: apt-get install ${dialect.debianPackage}) or set ${dialect.binVar}`,
    };
  }
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const update = spawnSync('apt-get', ['update', '-qq'], { env, encoding: 'utf8' });
  const [cmd, ...args] = dialect.installCommand ?? [
    'apt-get',
    'install',
    '-y',
    '-qq',
    dialect.debianPackage,
  ];
  const inst = spawnSync(cmd, args, { env, encoding: 'utf8' });
  bin = dialect.findBin();
  if (bin) return { bin };
  return {
    reason: `apt-get install ${dialect.debianPackage} failed (${update.status}/${inst.status}): ${(inst.stderr || update.stderr || '').slice(-500)}`,
  };
}

/** A fresh server of `dialect` with `database` created; a failed start leaves nothing behind. */
export async function startDbServer<Bin>(
  dialect: Dialect<Bin>,
  bin: Bin,
  { database = 'strapi_test' }: { database?: string } = {}
): Promise<DbServer> {
  const owner = serverOwner(dialect.owners, `the test ${dialect.debianPackage} server`);
  const dir = mkdtempSync(path.join(os.tmpdir(), `lc-${dialect.client}-`));
  if (owner) chownSync(dir, owner.uid, owner.gid);
  const port = await freePort();
  let running: Running | undefined;
  const stop = async () => {
    await running?.down().catch(() => undefined); // already down
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    running = dialect.init(bin, { dir, port, owner });
    await running.up();
    await dialect.createDatabase({ dir, port }, database);
  } catch (err) {
    await stop();
    throw err;
  }
  const { up, down } = running;
  return {
    host: '127.0.0.1',
    port,
    user: dialect.user,
    password: dialect.password,
    database,
    dir,
    env: {
      DATABASE_CLIENT: dialect.client,
      DATABASE_HOST: '127.0.0.1',
      DATABASE_PORT: String(port),
      DATABASE_NAME: database,
      DATABASE_USERNAME: dialect.user,
      DATABASE_PASSWORD: dialect.password,
    },
    down,
    up,
    stop,
  };
}
