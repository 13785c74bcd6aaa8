/**
 * The playground's admin panel, built once per fingerprint and shared: `npm run demo` builds it into
 * playground/build, the browser tests into each copy of the playground they boot. `strapi build`
 * takes one to two minutes here, so the result is kept under tests/.artifacts/e2e-admin/<fingerprint>
 * and copied while nothing it is made of changed (the plugin's built admin, the playground's models
 * and config, Strapi's version). Plain-Node callers (scripts/demo.js) load it through tsx.
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { promises as fs, readFileSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

const ROOT = path.resolve(__dirname, '..');
const CACHE = path.join(ROOT, 'tests', '.artifacts', 'e2e-admin');
/** In `<appDir>/build`: the fingerprint of the admin that is there. */
const STAMP = '.fingerprint';

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
export async function fingerprint(): Promise<string> {
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
  const strapiPackage = path.join(ROOT, 'node_modules', '@strapi', 'strapi', 'package.json');
  hash.update(JSON.parse(readFileSync(strapiPackage, 'utf8')).version);
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
 * Runs `make` in one process at a time per fingerprint: jest runs the browser tests and the demo
 * side by side, and two builds into one cache folder removed each other's files (ENOTEMPTY). The
 * lock is a folder (mkdir is atomic) naming its owner, taken over when that process is gone.
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
 * Makes `<appDir>/build` (where Strapi serves the admin from) the admin of the current
 * fingerprint: left as it is when its stamp says so, copied from the cache, or built by
 * `strapi build` in `appDir` and then kept in the cache. `appDir` is the playground or a copy of
 * it. The plugin itself must be built first (`npx strapi-plugin build`): the admin bundles dist/admin.
 * Resolves with what it did; `onBuild` is called before a build (a minute or two).
 */
export async function builtAdmin(
  appDir: string,
  { onBuild }: { onBuild?: () => void } = {}
): Promise<'current' | 'copied' | 'built'> {
  if (!(await exists(path.join(ROOT, 'dist', 'admin', 'index.mjs'))))
    throw new Error('Build the plugin first: npx strapi-plugin build');
  const fp = await fingerprint();
  const build = path.join(appDir, 'build');
  const stamp = path.join(build, STAMP);
  if ((await fs.readFile(stamp, 'utf8').catch(() => '')) === fp) return 'current';
  const cached = path.join(CACHE, fp, 'build');
  const copy = async () => {
    await fs.rm(build, { recursive: true, force: true });
    await fs.cp(cached, build, { recursive: true });
    await fs.writeFile(stamp, fp);
    return 'copied' as const;
  };
  if (await exists(path.join(cached, 'index.html'))) return copy();
  return underLock(fp, async () => {
    // Built by the process that held the lock before this one.
    if (await exists(path.join(cached, 'index.html'))) return copy();
    onBuild?.();
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
        // As a user builds it, whoever asks (jest sets NODE_ENV=test).
        NODE_ENV: 'production',
      }
    );
    // Copied aside, then renamed into place: a reader never sees half a build.
    const aside = path.join(CACHE, `${fp}.${process.pid}.tmp`);
    await fs.rm(aside, { recursive: true, force: true });
    await fs.cp(build, path.join(aside, 'build'), { recursive: true });
    await fs.rm(path.join(CACHE, fp), { recursive: true, force: true });
    await fs.rename(aside, path.join(CACHE, fp));
    // Only the current build is worth keeping (locks are their owners' to remove).
    for (const entry of await fs.readdir(CACHE))
      if (!entry.startsWith(fp) && !entry.endsWith('.lock'))
        await fs.rm(path.join(CACHE, entry), { recursive: true, force: true });
    await fs.writeFile(stamp, fp);
    return 'built' as const;
  });
}
