import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { ROOT, makeAppDir } from '../helpers/strapi';

const CACHE = path.join(ROOT, 'tests', '.artifacts', 'e2e-admin');

async function* files(dir: string): AsyncGenerator<string> {
  let entries;
  try {
    entries = await fs.readdir(dir, { withFileTypes: true });
  } catch {
    return;
  }
  for (const e of entries.sort((a, b) => a.name.localeCompare(b.name))) {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) yield* files(full);
    else yield full;
  }
}

/** Everything the admin bundle is made of: the plugin's built admin, the playground's models and config, Strapi's version. */
async function fingerprint(): Promise<string> {
  const hash = createHash('sha256');
  for (const dir of [
    path.join(ROOT, 'dist', 'admin'),
    path.join(ROOT, 'playground', 'src'),
    path.join(ROOT, 'playground', 'config'),
  ]) {
    for await (const file of files(dir)) {
      hash.update(path.relative(ROOT, file));
      hash.update(await fs.readFile(file));
    }
  }
  hash.update(require('@strapi/strapi/package.json').version);
  return hash.digest('hex').slice(0, 16);
}

const exists = (p: string) =>
  fs.access(p).then(
    () => true,
    () => false
  );

function run(cmd: string, args: string[], cwd: string, env: Record<string, string>): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, {
      cwd,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0
        ? resolve()
        : reject(new Error(`${cmd} ${args.join(' ')} exited with ${code}:\n${out.slice(-4000)}`))
    );
  });
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/**
 * Runs `make` in one process at a time per fingerprint: jest runs the e2e files side by side,
 * and two builds into one cache folder removed each other's files (ENOTEMPTY). The lock is a
 * folder (mkdir is atomic) naming its owner, taken over when that process is gone.
 */
async function underLock<T>(
  name: string,
  make: () => Promise<T>,
  waitMs = 15 * 60_000
): Promise<T> {
  const lock = path.join(CACHE, `${name}.lock`);
  const owner = path.join(lock, 'pid');
  await fs.mkdir(CACHE, { recursive: true });
  for (const end = Date.now() + waitMs; ;) {
    try {
      await fs.mkdir(lock);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const pid = Number(await fs.readFile(owner, 'utf8').catch(() => ''));
      // A lock without a pid is being taken (the pid comes just after mkdir), unless its taker
      // died in between: a moment's work never takes half a minute.
      const stale = pid
        ? !alive(pid)
        : await fs.stat(lock).then(
            (s) => Date.now() - s.mtimeMs > 30_000,
            () => false
          );
      if (stale) await fs.rm(lock, { recursive: true, force: true });
      else if (Date.now() > end)
        throw new Error(`the admin build (${lock}) was not ready after ${waitMs} ms`);
      else await sleep(1_000);
      continue;
    }
    try {
      await fs.writeFile(owner, String(process.pid));
      return await make();
    } finally {
      await fs.rm(lock, { recursive: true, force: true });
    }
  }
}

/**
 * An app folder (copy of the playground) with the admin panel built into `<appDir>/build`, where
 * Strapi serves it from. `strapi build` takes about a minute, so the result is kept under
 * tests/.artifacts/e2e-admin/<fingerprint> and reused while nothing it depends on changed.
 * The plugin itself must be built first (`npx strapi-plugin build`): the admin bundles dist/admin.
 */
export async function appWithBuiltAdmin(): Promise<string> {
  if (!(await exists(path.join(ROOT, 'dist', 'admin', 'index.mjs'))))
    throw new Error('Build the plugin first: npx strapi-plugin build');
  const appDir = await makeAppDir();
  if (path.relative(ROOT, appDir).startsWith('..'))
    await fs.symlink(path.join(ROOT, 'node_modules'), path.join(appDir, 'node_modules'), 'dir');
  const fp = await fingerprint();
  const cached = path.join(CACHE, fp, 'build');
  // true when this process built it: the build is then in appDir already
  const builtHere =
    !(await exists(path.join(cached, 'index.html'))) &&
    (await underLock(fp, async () => {
      // Built by the process that held the lock before this one.
      if (await exists(path.join(cached, 'index.html'))) return false;
      await run(
        process.execPath,
        [
          path.join(ROOT, 'node_modules', '@strapi', 'strapi', 'bin', 'strapi.js'),
          'build',
          '--silent',
        ],
        appDir,
        {
          LOCATION_CONTENT_PLUGIN_PATH: ROOT,
          STRAPI_TELEMETRY_DISABLED: 'true',
        }
      );
      // Copied aside, then renamed into place: a reader never sees half a build.
      const aside = path.join(CACHE, `${fp}.${process.pid}.tmp`);
      await fs.rm(aside, { recursive: true, force: true });
      await fs.cp(path.join(appDir, 'build'), path.join(aside, 'build'), { recursive: true });
      await fs.rm(path.join(CACHE, fp), { recursive: true, force: true });
      await fs.rename(aside, path.join(CACHE, fp));
      // Only the current build is worth keeping (locks are their owners' to remove).
      for (const entry of await fs.readdir(CACHE))
        if (!entry.startsWith(fp) && !entry.endsWith('.lock'))
          await fs.rm(path.join(CACHE, entry), { recursive: true, force: true });
      return true;
    }));
  if (!builtHere) await fs.cp(cached, path.join(appDir, 'build'), { recursive: true });
  return appDir;
}
