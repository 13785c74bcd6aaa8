/**
 * The database matrix of the integration tests. A jest project picks a kind (`sqlite`, `postgres`,
 * `mariadb`); for a server kind, its globalSetup starts one throw-away server per jest run
 * (tests/helpers/postgres.ts, mariadb.ts) and every test app gets its own database on it, named
 * after its folder (so an app restarted on the same folder finds its data again).
 *
 *   process.env.LC_TEST_DB          the kind of this test file's project (set by integration-setup.ts)
 *   process.env.LC_TEST_DB_<KIND>   JSON { client, host, port, user, password } of the running server
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import {
  adminQuery,
  createEmptyDatabase,
  databaseExists,
  serverEnv,
  type TestDbServer,
} from './db-admin';
import { serverFromTemplate, sqliteFromTemplate, useTemplates } from './db-template';

export type TestDbKind = 'sqlite' | 'postgres' | 'mariadb';

export const KINDS: TestDbKind[] = ['sqlite', 'postgres', 'mariadb'];

export const kind = (): TestDbKind => {
  const k = process.env.LC_TEST_DB || 'sqlite';
  if (!KINDS.includes(k as TestDbKind))
    throw new Error(`LC_TEST_DB=${k}: expected one of ${KINDS.join(', ')}`);
  return k as TestDbKind;
};

/**
 * Where globalSetup also leaves the server's address, by the pid of jest's main process: a
 * worker started before that project's globalSetup ran does not have it in its environment.
 */
export const infoFile = (k: TestDbKind, pid: number) =>
  path.join(__dirname, '..', '.artifacts', 'test-db', `${pid}-${k}.json`);

export const serverOf = (k: TestDbKind = kind()): TestDbServer | null => {
  if (k === 'sqlite') return null;
  let raw = process.env[`LC_TEST_DB_${k.toUpperCase()}`];
  for (const pid of [process.ppid, process.pid]) {
    if (raw) break;
    try {
      raw = readFileSync(infoFile(k, pid), 'utf8');
    } catch {
      // not this one
    }
  }
  if (!raw)
    throw new Error(
      `LC_TEST_DB=${k} but no ${k} server was started (run through the integration-${k} jest project)`
    );
  return JSON.parse(raw);
};

/** The database name of the app in `appDir`. */
export const databaseName = (appDir: string) =>
  `lc_${createHash('sha1').update(path.resolve(appDir)).digest('hex').slice(0, 16)}`;

/** env for the playground's config/database.js: the app's own database on this run's server, or its SQLite file. */
export function databaseEnv(
  appDir: string,
  { database }: { database?: string } = {}
): Record<string, string> {
  const server = serverOf();
  if (!server)
    return { DATABASE_CLIENT: 'sqlite', DATABASE_FILENAME: path.join(appDir, '.tmp', 'data.db') };
  return serverEnv(server, database ?? databaseName(appDir));
}

/**
 * Creates the database `name` (default: the app's), unless it exists. Under jest, on SQLite and
 * PostgreSQL, it starts as a copy of the template of the app's schema (tests/helpers/db-template.ts).
 */
export async function createDatabase(appDir: string, name = databaseName(appDir)): Promise<void> {
  const server = serverOf();
  if (!server) {
    if (useTemplates()) await sqliteFromTemplate(appDir, databaseEnv(appDir).DATABASE_FILENAME);
    return;
  }
  if (await databaseExists(server, name)) return;
  if (useTemplates() && server.client === 'postgres')
    await serverFromTemplate(appDir, server, name);
  else await createEmptyDatabase(server, name);
}

/** Runs `sql` in the database of the app in `appDir`, beside the app (a test's hand on its data). */
export const appQuery = (appDir: string, sql: string) =>
  adminQuery(serverOf()!, sql, databaseName(appDir));
