/**
 * The published package, installed into a Strapi 5 app that is not this repository.
 *
 *   npm run test:package                     (about 8 min: most of it is npm compiling better-sqlite3)
 *   npm run test:package -- --strapi 5.0.0   (the app on another Strapi 5 release; or LC_PACKAGE_STRAPI=5.0.0)
 *   npm run test:package -- --strapi min     (the lowest release peerDependencies admits)
 *
 * Builds the plugin, packs it with `npm pack`, checks the tarball, writes a minimal Strapi 5 app
 * (its own content types, SQLite) in the system temp folder, installs Strapi and then the tarball
 * there with npm like a user, builds that app's admin, starts it with `strapi start` (plain node)
 * and checks, over HTTP, that the plugin is loaded, its routes are guarded, its settings page is in
 * the built admin, and that entries reach a Location Content API emulator on create and on publish;
 * then, in headless Chromium, that its pages, side panel and Content Manager actions are drawn.
 * The same checks run whatever Strapi release the app is given.
 *
 * The app lives outside the repository on purpose: nothing may resolve from our node_modules, and
 * no tsconfig.json above it turns it into a TypeScript app. Anything that only works inside this
 * repository (a file missing from the tarball, a dependency that is only a devDependency here, a
 * peer shipped as a dependency) makes a check fail.
 *
 * Env: LC_PACKAGE_KEEP=1 keeps the temp folder; LC_PACKAGE_VERBOSE=1 streams child output;
 * LC_PACKAGE_STATIC_ONLY=1 stops after the tarball checks (under a minute, no install).
 * Ends with "N passed, M failed"; exit code 1 on any failure.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { promises as fs, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startEmulator, type EmulatorHandle } from '../../emulator/src';
import { adminBrowserChecks, type AdminBrowserTarget } from './admin-browser';
import {
  ADMIN_EMAIL,
  APP_DEPENDENCIES,
  KEEP,
  PASSWORD,
  PKG,
  PLUGIN_ID,
  ROOT,
  STATIC_ONLY,
  STRAPI_VERSION,
} from './config';
import {
  children,
  collectOutput,
  freePort,
  groupAlive,
  killGroup,
  run,
  sleep,
  tail,
  userEnv,
  waitFor,
} from './processes';
import {
  assert,
  check,
  errorText,
  log,
  recordUnexpected,
  step,
  StopEarly,
  summarize,
} from './report';
import { ancestorsLeak, writeApp } from './app-writer';
import { adminBuildChecks, installChecks } from './installed-app';
import { keepCompiledSqlite } from './sqlite-prebuild-cache';
import { pack, tarballChecks } from './tarball';

// ---------------------------------------------------------------------------------------------
// HTTP

interface Reply {
  status: number;
  body: any;
  text: string;
}

async function http(
  base: string,
  method: string,
  url: string,
  opts: { token?: string; body?: unknown } = {}
): Promise<Reply> {
  const headers: Record<string, string> = {};
  if (opts.token) headers.Authorization = `Bearer ${opts.token}`;
  if (opts.body !== undefined) headers['Content-Type'] = 'application/json';
  const res = await fetch(base + url, {
    method,
    headers,
    body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
  });
  const text = await res.text();
  let body: any = text;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    /* not JSON */
  }
  return { status: res.status, body, text };
}

const short = (r: Reply) => `${r.status} ${r.text.slice(0, 300)}`;

// ---------------------------------------------------------------------------------------------

async function main() {
  log(
    `package test: ${PKG.name}@${PKG.version} (plugin id ${PLUGIN_ID}), Strapi ${STRAPI_VERSION}, node ${process.version}`
  );
  const work = await fs.mkdtemp(path.join(os.tmpdir(), 'lc-package-'));
  const appDir = path.join(work, 'app');
  log(`temp folder: ${work}${KEEP ? ' (kept: LC_PACKAGE_KEEP=1)' : ''}`);

  let emulator: EmulatorHandle | undefined;
  let strapiProc: ChildProcess | undefined;
  let strapiOut = '';

  const cleanup = async () => {
    if (strapiProc) killGroup(strapiProc);
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
    await step('plugin build (npm run build)', () =>
      run('npm', ['run', 'build'], { cwd: ROOT, env: process.env, timeoutMs: 5 * 60_000 })
    );
    await step('strapi-plugin verify', () =>
      run('npx', ['strapi-plugin', 'verify'], {
        cwd: ROOT,
        env: process.env,
        timeoutMs: 2 * 60_000,
      })
    );
    const packed = await step('npm pack', () => pack(work));
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
    const appEnv = (extra: Record<string, string> = {}) =>
      userEnv({
        NODE_ENV: 'production',
        STRAPI_TELEMETRY_DISABLED: 'true',
        STRAPI_DISABLE_UPDATE_NOTIFICATION: 'true',
        BROWSER: 'none',
        ...extra,
      });
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
    await step(`npx strapi start on ${base}`, async () => {
      const proc = spawn('npx', ['strapi', 'start'], {
        cwd: appDir,
        env: appEnv({
          HOST: '127.0.0.1',
          PORT: String(port),
          LOCATION_CONTENT_BASE_URL: emu.baseUrl,
          LOCATION_CONTENT_CLIENT_ID: emu.clientId,
          LOCATION_CONTENT_CLIENT_SECRET: emu.clientSecret,
        }),
        stdio: ['ignore', 'pipe', 'pipe'],
        detached: true,
      });
      strapiProc = proc;
      collectOutput(proc, (text) => (strapiOut += text));
      let exited: string | undefined;
      proc.on('exit', (code, signal) => (exited = `exited with ${code ?? signal}`));
      const ready = await waitFor(
        'GET /_health',
        async () => {
          if (exited) return exited;
          return (await fetch(`${base}/_health`)).status === 204 ? 'ready' : undefined;
        },
        3 * 60_000
      ).catch((err) => {
        throw new Error(`${errorText(err)}\n${tail(strapiOut, 40)}`);
      });
      if (ready !== 'ready') throw new Error(`strapi start ${ready}\n${tail(strapiOut, 40)}`);
    });

    await check('the built admin is served at /admin', async () => {
      const r = await http(base, 'GET', '/admin');
      assert(r.status === 200 && /<html/i.test(r.text), short(r));
    });
    await check(`the plugin's admin routes answer 401 without a token`, async () => {
      for (const url of [
        `/${PLUGIN_ID}/settings`,
        `/${PLUGIN_ID}/status`,
        `/${PLUGIN_ID}/mappings`,
      ]) {
        const r = await http(base, 'GET', url);
        assert(r.status === 401, `GET ${url}: ${short(r)}`);
      }
    });

    let token: string | undefined;
    await check(
      'a super admin registers on the fresh app (POST /admin/register-admin)',
      async () => {
        const r = await http(base, 'POST', '/admin/register-admin', {
          body: { firstname: 'Package', lastname: 'Test', email: ADMIN_EMAIL, password: PASSWORD },
        });
        assert(r.status === 200 || r.status === 201, short(r));
        token = r.body?.data?.token;
        assert(token, `no token in ${short(r)}`);
      }
    );

    if (token) {
      const auth = { token };
      await check(
        `GET /${PLUGIN_ID}/settings with the admin JWT: 200, base URL from config, no secret`,
        async () => {
          const r = await http(base, 'GET', `/${PLUGIN_ID}/settings`, auth);
          assert(r.status === 200, short(r));
          assert(r.text.includes(emu.baseUrl), `the base URL ${emu.baseUrl} is not in ${short(r)}`);
          assert(!r.text.includes(emu.clientSecret), 'the client secret went out in the answer');
        }
      );
      await check(
        `GET /${PLUGIN_ID}/mappings: both mappings active, no problems against the app's models`,
        async () => {
          const r = await http(base, 'GET', `/${PLUGIN_ID}/mappings`, auth);
          assert(r.status === 200, short(r));
          const mappings: any[] = Array.isArray(r.body)
            ? r.body
            : (r.body?.mappings ?? r.body?.data ?? []);
          for (const uid of ['api::venue.venue', 'api::landmark.landmark']) {
            const m = mappings.find((x) => x.contentType === uid);
            assert(m, `${uid} missing from ${short(r)}`);
            assert(m.active !== false && !(m.problems?.length > 0), `${uid}: ${JSON.stringify(m)}`);
          }
        }
      );
      await check(`GET /${PLUGIN_ID}/status: 200`, async () => {
        const r = await http(base, 'GET', `/${PLUGIN_ID}/status`, auth);
        assert(r.status === 200, short(r));
      });
      await check("the plugin's hidden content types are registered", async () => {
        const r = await http(base, 'GET', '/content-type-builder/content-types', auth);
        assert(r.status === 200, short(r));
        const uids: string[] = (r.body?.data ?? []).map((ct: any) => ct.uid);
        const ours = uids.filter((uid) => uid.startsWith(`plugin::${PLUGIN_ID}.`));
        assert(
          ours.length >= 2,
          `plugin::${PLUGIN_ID}.* content types: ${ours.join(', ') || 'none'}`
        );
      });

      const pinpointNamed = (name: string) =>
        emu.state().pinpoints.find((p: any) => p.name === name);
      await check(
        'a venue created in the Content Manager (no draft & publish) reaches the emulator as a pinpoint',
        async () => {
          const name = `Package Test Venue ${Date.now()}`;
          const r = await http(base, 'POST', '/content-manager/collection-types/api::venue.venue', {
            ...auth,
            body: { name, location: { lat: 48.8584, lng: 2.2945 } },
          });
          assert(r.status === 200 || r.status === 201, short(r));
          const pinpoint: any = await waitFor(
            `pinpoint "${name}" on the emulator`,
            () => pinpointNamed(name),
            30_000
          );
          assert(
            Math.abs(pinpoint.latitude - 48.8584) < 1e-6 &&
              Math.abs(pinpoint.longitude - 2.2945) < 1e-6,
            `coordinates: ${JSON.stringify(pinpoint)}`
          );
        }
      );
      let synced: AdminBrowserTarget['synced'] | undefined;
      await check(
        'a landmark draft stays local; its publish reaches the emulator; the entry route shows the remote id',
        async () => {
          const title = `Package Test Landmark ${Date.now()}`;
          const uid = 'api::landmark.landmark';
          const created = await http(base, 'POST', `/content-manager/collection-types/${uid}`, {
            ...auth,
            body: {
              title,
              summary: 'A **landmark** from the package test.',
              lat: 45.764,
              lng: 4.8357,
            },
          });
          assert(created.status === 200 || created.status === 201, `create: ${short(created)}`);
          const documentId: string = created.body?.data?.documentId;
          assert(documentId, `no documentId in ${short(created)}`);
          await sleep(2_000);
          assert(!pinpointNamed(title), 'the draft was pushed before any publish');
          const published = await http(
            base,
            'POST',
            `/content-manager/collection-types/${uid}/${documentId}/actions/publish`,
            { ...auth, body: {} }
          );
          assert(
            published.status === 200 || published.status === 201,
            `publish: ${short(published)}`
          );
          const pinpoint: any = await waitFor(
            `pinpoint "${title}" on the emulator`,
            () => pinpointNamed(title),
            30_000
          );
          assert(
            Math.abs(pinpoint.latitude - 45.764) < 1e-6 &&
              Math.abs(pinpoint.longitude - 4.8357) < 1e-6,
            `coordinates: ${JSON.stringify(pinpoint)}`
          );
          assert(
            /<strong>landmark<\/strong>/.test(pinpoint.description ?? ''),
            `description: ${JSON.stringify(pinpoint.description)}`
          );
          const entry = await waitFor(
            'the entry route to show the remote id',
            async () => {
              const r = await http(base, 'GET', `/${PLUGIN_ID}/entries/${uid}/${documentId}`, auth);
              if (r.status !== 200) throw new Error(short(r));
              return r.text.includes(String(pinpoint.id)) ? r : undefined;
            },
            15_000
          );
          assert(entry.status === 200, short(entry));
          synced = { uid, documentId, title };
        }
      );

      if (synced) {
        await adminBrowserChecks(
          { base, email: ADMIN_EMAIL, password: PASSWORD, pluginId: PLUGIN_ID, synced },
          check
        );
      }
    }

    await check("the plugin's tables exist in the app's SQLite database", async () => {
      const out = await run(
        'node',
        [
          '-e',
          `const db = new (require('better-sqlite3'))('.tmp/data.db', { readonly: true });
           console.log(JSON.stringify(db.prepare("select name from sqlite_master where type='table'").all().map((r) => r.name)));`,
        ],
        { cwd: appDir }
      );
      const tables: string[] = JSON.parse(out.trim().split('\n').pop()!);
      const missing = ['location_content_outbox', 'location_content_sync_states'].filter(
        (t) => !tables.includes(t)
      );
      assert(
        missing.length === 0,
        `missing: ${missing.join(', ')} (tables: ${tables.filter((t) => t.includes('location')).join(', ')})`
      );
    });

    await step('stop Strapi (SIGTERM)', async () => {
      const proc = strapiProc!;
      const exited = new Promise<void>((resolve) =>
        proc.exitCode !== null ? resolve() : proc.once('exit', () => resolve())
      );
      killGroup(proc);
      // npx exits at once; Strapi's own node process (same group) shuts down after it
      const groupGone = waitFor(
        'the Strapi process group to exit',
        () => !groupAlive(proc) || undefined,
        20_000,
        100
      );
      await Promise.race([
        exited.then(() => groupGone),
        sleep(20_000).then(() => Promise.reject(new Error('still running 20 s after SIGTERM'))),
      ]);
      strapiProc = undefined;
    });
    await check('no error in the Strapi log', () => {
      // Node's deprecation notices end with "...will throw an error": they are shown, not counted (Strapi
      // 5.12's admin server makes Node warn DEP0170 for every Content Manager URL it serves, as `api::x.y`).
      const lines = strapiOut.split('\n');
      const deprecations = lines.filter((l) => /\[DEP\d+\] DeprecationWarning/.test(l));
      if (deprecations.length)
        log(
          `  note: Node deprecation warnings in the Strapi log:\n        ${[...new Set(deprecations)].slice(0, 5).join('\n        ')}`
        );
      const errors = lines.filter((l) => /\berror\b/i.test(l) && !deprecations.includes(l));
      assert(errors.length === 0, errors.slice(0, 10).join('\n'));
    });
  } catch (err) {
    recordUnexpected(err);
    if (strapiOut) log(`Strapi output (tail):\n${tail(strapiOut, 60)}`);
  } finally {
    await cleanup();
  }

  process.exitCode = summarize() ? 1 : 0;
}

void main();
