/**
 * Template databases: a new test app's database starts as a copy of one on which Strapi already
 * created its schema for that same app, instead of empty. Strapi then finds its schema unchanged
 * and skips the sync (under load, half of a boot: a statement per table, index and foreign key).
 * It also holds the rows of Strapi's first boot (the admin's roles and 141 permissions, the default
 * locale: a statement each, 0.4 s of CPU and 1.5-2 s of a PostgreSQL boot under load) and nothing
 * of the plugin's (tests/helpers/db-template-child.ts): an app boots on it as on a new database
 * whose admin is set up, the plugin's tables empty with ids from 1, its own indexes made by it.
 *
 * A template is named after everything that makes the schema (the app's config and sources, the
 * built plugin, the lock file) and made by the first app that needs it: for SQLite a file kept in
 * tests/.artifacts/db-templates/, copied; on the run's PostgreSQL a database the new one is created
 * from (CREATE DATABASE ... TEMPLATE). Not on MariaDB, which has no such thing: its tables made
 * again from SHOW CREATE TABLE cost more than Strapi's schema sync on a quiet machine (14 files:
 * +17 s), and only a load of 16-19 made the sync slower (20-24 s a boot against 3.7 s for the copy).
 * Only inside jest: the benchmarks measure boots as users have them.
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import {
  adminQuery,
  createEmptyDatabase,
  databaseExists,
  dropDatabase,
  serverEnv,
  withServerLock,
  type TestDbServer,
} from './db-admin';

const ROOT = path.resolve(__dirname, '..', '..');
const TEMPLATES = path.join(ROOT, 'tests', '.artifacts', 'db-templates');
/** db-template-child.ts, compiled by tsx (node.js) while Strapi is loaded by plain Node. */
const CHILD = path.join(__dirname, 'db-template-child.ts');
const NODE_TS = path.join(__dirname, 'node.js');

/** Paths and contents of what decides the schema of the app in `appDir` (and its template). */
async function schemaKey(appDir: string): Promise<string> {
  const hash = createHash('sha1');
  const add = async (file: string, name = path.relative(appDir, file)) => {
    hash
      .update(name)
      .update('\0')
      .update(await fs.readFile(file))
      .update('\0');
  };
  const walk = async (dir: string) => {
    const entries = await fs.readdir(dir, { withFileTypes: true });
    for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) await walk(full);
      else if (entry.isFile()) await add(full);
    }
  };
  await walk(path.join(appDir, 'config'));
  await walk(path.join(appDir, 'src'));
  await add(path.join(ROOT, 'dist', 'server', 'index.js'), 'plugin');
  await add(path.join(ROOT, 'package-lock.json'), 'lock');
  // How templates are made is part of what they hold.
  await add(CHILD, 'child');
  await add(path.join(__dirname, 'boot.ts'), 'boot');
  return hash.digest('hex').slice(0, 16);
}

const run = (env: NodeJS.ProcessEnv, cwd: string) =>
  new Promise<void>((resolve, reject) => {
    const child = spawn(process.execPath, [NODE_TS, 'db-template-child'], {
      cwd,
      env,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0 ? resolve() : reject(new Error(`db-template-child exit ${code}: ${stderr}`))
    );
  });

/**
 * Boots Strapi once on a copy of `appDir` (the app's own folder stays as made) with the database
 * `dbEnv` names, which the child then empties down to the schema.
 */
async function bootOnce(appDir: string, dbEnv: Record<string, string>): Promise<void> {
  await fs.mkdir(TEMPLATES, { recursive: true });
  const scratch = await fs.mkdtemp(path.join(TEMPLATES, 'make-'));
  try {
    await fs.cp(appDir, scratch, { recursive: true });
    // Not what an earlier test of this worker left in its environment (startApp sets it).
    const env: NodeJS.ProcessEnv = Object.fromEntries(
      Object.entries(process.env).filter(([name]) => !/^(LOCATION_CONTENT_|DATABASE_)/.test(name))
    );
    Object.assign(env, dbEnv, {
      APP_DIR: scratch,
      LOCATION_CONTENT_PLUGIN_PATH: ROOT,
      LOCATION_CONTENT_CONFIG_PATCH: JSON.stringify({ config: { syncEnabled: false } }),
      STRAPI_LOG_LEVEL: 'error',
      STRAPI_TELEMETRY_DISABLED: 'true',
      NODE_ENV: 'test',
    });
    // jest's own variables would make Strapi think it runs inside jest.
    delete env.JEST_WORKER_ID;
    await run(env, scratch);
  } finally {
    await fs.rm(scratch, { recursive: true, force: true });
  }
}

/** Gives the app in `appDir` its SQLite file `target` from the template of its schema, made first if missing. */
export async function sqliteFromTemplate(appDir: string, target: string): Promise<void> {
  const file = path.join(TEMPLATES, `${await schemaKey(appDir)}.db`);
  try {
    await fs.access(file);
  } catch {
    const made = path.join(TEMPLATES, `${path.basename(file)}.${process.pid}`);
    await bootOnce(appDir, { DATABASE_CLIENT: 'sqlite', DATABASE_FILENAME: made });
    // Atomic: two workers making the same template at once both leave a whole file.
    await fs.rename(made, file);
  }
  await fs.mkdir(path.dirname(target), { recursive: true });
  await fs.copyFile(file, target);
}

/**
 * Creates the database `name` on the PostgreSQL `server` from the template of the schema of the
 * app in `appDir`, made first if missing (one worker makes it, the other waits).
 */
export async function serverFromTemplate(
  appDir: string,
  server: TestDbServer,
  name: string
): Promise<void> {
  const template = `lc_tpl_${await schemaKey(appDir)}`;
  await withServerLock(server, template, async () => {
    if (await databaseExists(server, template)) return;
    await createEmptyDatabase(server, template);
    try {
      await bootOnce(appDir, serverEnv(server, template));
    } catch (err) {
      await dropDatabase(server, template);
      throw err;
    }
  });
  await adminQuery(server, `CREATE DATABASE ${name} TEMPLATE ${template}`);
}

/** Whether new apps start from a template here: inside jest, unless LC_TEST_DB_TEMPLATE=0. */
export const useTemplates = () =>
  Boolean(process.env.JEST_WORKER_ID) && process.env.LC_TEST_DB_TEMPLATE !== '0';
