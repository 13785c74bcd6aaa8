/**
 * The published package, installed into a Strapi 5 app that is not this repository.
 *
 *   npm run test:package                     (about 8 min: most of it is npm compiling better-sqlite3)
 *   npm run test:package -- --strapi 5.0.0   (the app on another Strapi 5 release; or LC_PACKAGE_STRAPI=5.0.0)
 *   npm run test:package -- --strapi min     (the lowest release peerDependencies admits)
 *
 * Builds the plugin (unless dist/ is newer than its sources), packs it with `npm pack`, checks the
 * tarball, writes a minimal Strapi 5 app (its own content types, SQLite) in the system temp folder,
 * installs Strapi and then the tarball there with npm like a user, builds that app's admin, starts
 * it with `strapi start` (plain node) and checks, over HTTP, that the plugin is loaded, its routes
 * are guarded, its settings page is in the built admin, and that entries reach a Location Content
 * API emulator on create and on publish; then, in headless Chromium, that its pages, side panel and
 * Content Manager actions are drawn. The same checks run whatever Strapi release the app is given.
 *
 * The app lives outside the repository on purpose: nothing may resolve from our node_modules, and
 * no tsconfig.json above it turns it into a TypeScript app. Anything that only works inside this
 * repository (a file missing from the tarball, a dependency that is only a devDependency here, a
 * peer shipped as a dependency) makes a check fail.
 *
 * Env: LC_PACKAGE_KEEP=1 keeps the temp folder; LC_PACKAGE_VERBOSE=1 streams child output;
 * LC_PACKAGE_STATIC_ONLY=1 stops after the tarball checks (under a minute, no install).
 * LC_PACKAGE_PACKED=<folder>: the package is built, verified and packed into that folder by the
 * first run that names it, and taken from there by the next ones (.ci/run's second release): the
 * same tarball, checked again, without a second build.
 * Ends with "N passed, M failed"; exit code 1 on any failure.
 */
import { existsSync, promises as fs, readFileSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startEmulator, type EmulatorHandle } from '../../emulator/src';
import { ancestorsLeak, writeApp } from './app-writer';
import {
  APP_DEPENDENCIES,
  KEEP,
  PKG,
  PLUGIN_ID,
  ROOT,
  STATIC_ONLY,
  STRAPI_VERSION,
} from './config';
import { adminBuildChecks, databaseChecks, installChecks } from './installed-app';
import { children, freePort, killGroup, run, tail, userEnv } from './processes';
import { assert, errorText, log, recordUnexpected, step, StopEarly, summarize } from './report';
import { runningAppChecks } from './running-app';
import { keepCompiledSqlite } from './sqlite-prebuild-cache';
import {
  appEnv,
  startStrapi,
  stopStrapi,
  strapiLogChecks,
  type StrapiServer,
} from './strapi-server';
import { pack, tarballChecks, type PackResult } from './tarball';

async function main() {
  log(
    `package test: ${PKG.name}@${PKG.version} (plugin id ${PLUGIN_ID}), Strapi ${STRAPI_VERSION}, node ${process.version}`
  );
  const work = await fs.mkdtemp(path.join(os.tmpdir(), 'lc-package-'));
  const appDir = path.join(work, 'app');
  log(`temp folder: ${work}${KEEP ? ' (kept: LC_PACKAGE_KEEP=1)' : ''}`);

  let emulator: EmulatorHandle | undefined;
  const strapi: StrapiServer = { out: '' };

  const cleanup = async () => {
    if (strapi.proc) killGroup(strapi.proc);
    for (const child of children) killGroup(child);
    if (emulator) await emulator.stop().catch(() => undefined);
    if (!KEEP) await fs.rm(work, { recursive: true, force: true }).catch(() => undefined);
  };
  const onSignal = (signal: NodeJS.Signals) => {
    log(`${signal}: stopping`);
    void cleanup().finally(() => process.exit(130));
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);

  try {
    // 1. The package as it would be published -------------------------------------------------
    const shared = process.env.LC_PACKAGE_PACKED;
    const sharedList = shared && path.join(shared, 'packed.json');
    let packed: PackResult;
    if (sharedList && existsSync(sharedList)) {
      packed = JSON.parse(readFileSync(sharedList, 'utf8')) as PackResult;
      log(`  the package packed by an earlier run (LC_PACKAGE_PACKED=${shared})`);
    } else {
      // npm run build, unless dist/ is newer than its sources (npm test built it a moment ago).
      await step('plugin build (scripts/build-if-stale.js)', () =>
        run('node', ['scripts/build-if-stale.js'], {
          cwd: ROOT,
          env: process.env,
          timeoutMs: 5 * 60_000,
        })
      );
      await step('strapi-plugin verify', () =>
        run('npx', ['strapi-plugin', 'verify'], {
          cwd: ROOT,
          env: process.env,
          timeoutMs: 2 * 60_000,
        })
      );
      if (shared) await fs.mkdir(shared, { recursive: true });
      packed = await step('npm pack', () => pack(shared ?? work));
      if (sharedList) await fs.writeFile(sharedList, JSON.stringify(packed));
    }
    log(
      `  ${path.basename(packed.tarball)}: ${packed.files.length} files, ${(statSync(packed.tarball).size / 1024).toFixed(1)} kB`
    );

    await tarballChecks(packed);

    if (STATIC_ONLY) {
      log('LC_PACKAGE_STATIC_ONLY=1: stopping before the install');
      throw new StopEarly();
    }

    // 2. A Strapi app elsewhere, installed like a user does ---------------------------------------
    await step(
      'write a minimal Strapi 5 app (venue: no draft & publish, JSON location; landmark: draft & publish)',
      async () => {
        await writeApp(appDir);
        const leaks = ancestorsLeak(appDir);
        assert(
          leaks.length === 0,
          `the temp folder is not isolated, these would leak into the app: ${leaks.join(', ')}`
        );
      }
    );
    const versions = Object.entries(APP_DEPENDENCIES).map(([n, v]) => `${n}@${v}`);
    await step(
      `npm install ${versions.join(' ')} (better-sqlite3 compiles unless its prebuild is cached: a few minutes)`,
      () =>
        run('npm', ['install', '--no-audit', '--no-fund', '--save-exact', ...versions], {
          cwd: appDir,
          timeoutMs: 20 * 60_000,
        })
    );
    log(
      `  ${await keepCompiledSqlite(appDir, userEnv(), run).catch((err) => `could not cache the better-sqlite3 build: ${errorText(err)}`)}`
    );
    const installOut = await step(`npm install ${path.basename(packed.tarball)}`, () =>
      run('npm', ['install', '--no-audit', '--no-fund', packed.tarball], {
        cwd: appDir,
        timeoutMs: 10 * 60_000,
      })
    );
    await installChecks(appDir, installOut);

    // 3. The app's admin, built by Strapi with the plugin in it -----------------------------------
    await step("npx strapi build (the app's admin)", () =>
      run('npx', ['strapi', 'build'], { cwd: appDir, env: appEnv(), timeoutMs: 10 * 60_000 })
    );
    await adminBuildChecks(appDir);

    // 4. The app running, the plugin syncing to the emulator --------------------------------------
    emulator = await step('start the Location Content API emulator', () =>
      startEmulator({ strict: true })
    );
    const emu = emulator;
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    await step(`npx strapi start on ${base}`, () => startStrapi(strapi, appDir, port, emu));

    await runningAppChecks(base, emu);
    await databaseChecks(appDir);
    await step('stop Strapi (SIGTERM)', () => stopStrapi(strapi));
    await strapiLogChecks(strapi);
  } catch (err) {
    recordUnexpected(err);
    if (strapi.out) log(`Strapi output (tail):\n${tail(strapi.out, 60)}`);
  } finally {
    await cleanup();
  }

  process.exitCode = summarize() ? 1 : 0;
}

void main();
