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
import { promises as fs, existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startEmulator, type EmulatorHandle } from '../../emulator/src';
import { adminBrowserChecks, type AdminBrowserTarget } from './admin-browser';
import {
  ADMIN_EMAIL,
  APP_DEPENDENCIES,
  KEEP,
  MUST_BE_STRAPIS_COPY,
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
import { keepCompiledSqlite } from './sqlite-prebuild-cache';
import { pack, tarballChecks } from './tarball';

// ---------------------------------------------------------------------------------------------
// the Strapi app (written here, not copied from the playground)

const venueSchema = {
  kind: 'collectionType',
  collectionName: 'venues',
  info: { singularName: 'venue', pluralName: 'venues', displayName: 'Venue' },
  options: { draftAndPublish: false },
  attributes: {
    name: { type: 'string', required: true },
    location: { type: 'json' },
  },
};

const landmarkSchema = {
  kind: 'collectionType',
  collectionName: 'landmarks',
  info: { singularName: 'landmark', pluralName: 'landmarks', displayName: 'Landmark' },
  options: { draftAndPublish: true },
  attributes: {
    title: { type: 'string', required: true },
    summary: { type: 'richtext' },
    lat: { type: 'float' },
    lng: { type: 'float' },
  },
};

/** 1x1 transparent PNG. */
const TINY_PNG =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=';

async function writeApp(appDir: string) {
  const write = async (rel: string, text: string) => {
    await fs.mkdir(path.dirname(path.join(appDir, rel)), { recursive: true });
    await fs.writeFile(path.join(appDir, rel), text);
  };
  await write(
    'package.json',
    JSON.stringify(
      {
        name: 'location-content-package-test-app',
        private: true,
        version: '0.0.0',
        scripts: {
          develop: 'strapi develop',
          start: 'strapi start',
          build: 'strapi build',
          strapi: 'strapi',
        },
        dependencies: {},
        strapi: { uuid: 'location-content-package-test' },
        engines: { node: '>=20.19.0' },
      },
      null,
      2
    ) + '\n'
  );
  await write(
    'config/server.js',
    `module.exports = ({ env }) => ({
  host: env('HOST', '127.0.0.1'),
  port: env.int('PORT', 1337),
  app: { keys: env.array('APP_KEYS', ['packageTestKeyA', 'packageTestKeyB']) },
});
`
  );
  await write(
    'config/admin.js',
    `module.exports = ({ env }) => ({
  auth: { secret: env('ADMIN_JWT_SECRET', 'package-test-admin-jwt-secret') },
  apiToken: { salt: env('API_TOKEN_SALT', 'package-test-api-token-salt') },
  transfer: { token: { salt: env('TRANSFER_TOKEN_SALT', 'package-test-transfer-token-salt') } },
  secrets: { encryptionKey: env('ENCRYPTION_KEY', 'package-test-encryption-key') },
  flags: { nps: false, promoteEE: false },
});
`
  );
  await write(
    'config/database.js',
    `const path = require('path');

module.exports = ({ env }) => ({
  connection: {
    client: 'sqlite',
    connection: { filename: path.join(__dirname, '..', env('DATABASE_FILENAME', '.tmp/data.db')) },
    useNullAsDefault: true,
  },
});
`
  );
  await write(
    'config/middlewares.js',
    `module.exports = [
  'strapi::logger',
  'strapi::errors',
  'strapi::security',
  'strapi::cors',
  'strapi::poweredBy',
  'strapi::query',
  'strapi::body',
  'strapi::session',
  'strapi::favicon',
  'strapi::public',
];
`
  );
  // As the README's Install section says: enabled, credentials from the environment, mappings as code.
  await write(
    'config/plugins.js',
    `module.exports = ({ env }) => ({
  '${PLUGIN_ID}': {
    enabled: true,
    config: {
      baseUrl: env('LOCATION_CONTENT_BASE_URL', 'https://api.getwemap.com'),
      clientId: env('LOCATION_CONTENT_CLIENT_ID'),
      clientSecret: env('LOCATION_CONTENT_CLIENT_SECRET'),
      rateLimit: { requestsPerSecond: 10, concurrency: 4 },
      mappings: [
        { contentType: 'api::venue.venue', resource: 'pinpoint', fields: { name: 'name', coordinates: 'location' } },
        { contentType: 'api::landmark.landmark', resource: 'pinpoint',
          fields: { name: 'title', description: 'summary', latitude: 'lat', longitude: 'lng' } },
      ],
    },
  },
});
`
  );
  await write('src/index.js', `module.exports = {\n  register() {},\n  bootstrap() {},\n};\n`);
  for (const [name, schema] of [
    ['venue', venueSchema],
    ['landmark', landmarkSchema],
  ] as const) {
    const uid = `api::${name}.${name}`;
    await write(
      `src/api/${name}/content-types/${name}/schema.json`,
      JSON.stringify(schema, null, 2) + '\n'
    );
    await write(
      `src/api/${name}/controllers/${name}.js`,
      `const { factories } = require('@strapi/strapi');\n\nmodule.exports = factories.createCoreController('${uid}');\n`
    );
    await write(
      `src/api/${name}/routes/${name}.js`,
      `const { factories } = require('@strapi/strapi');\n\nmodule.exports = factories.createCoreRouter('${uid}');\n`
    );
    await write(
      `src/api/${name}/services/${name}.js`,
      `const { factories } = require('@strapi/strapi');\n\nmodule.exports = factories.createCoreService('${uid}');\n`
    );
  }
  await write('public/uploads/.gitkeep', '');
  // As create-strapi-app gives every app: without it, strapi::favicon logs an ENOENT error for each browser visit.
  await fs.writeFile(path.join(appDir, 'favicon.png'), Buffer.from(TINY_PNG, 'base64'));
  await write('.gitignore', 'node_modules/\n.tmp/\nbuild/\ndist/\n.strapi/\n');
}

interface InstalledPackage {
  name: string;
  version: string;
  dir: string;
  repository: string;
}

/** Every `@strapi/*` package installed anywhere in the app (hoisted or nested), read from disk. */
function installedStrapiPackages(appDir: string): InstalledPackage[] {
  const found: InstalledPackage[] = [];
  const visit = (modules: string) => {
    if (!existsSync(modules)) return;
    for (const name of readdirSync(modules)) {
      if (name.startsWith('.')) continue;
      const dirs = name.startsWith('@')
        ? readdirSync(path.join(modules, name)).map((n) => path.join(modules, name, n))
        : [path.join(modules, name)];
      for (const dir of dirs) {
        const manifest = path.join(dir, 'package.json');
        if (name === '@strapi' && existsSync(manifest)) {
          const pkg = JSON.parse(readFileSync(manifest, 'utf8'));
          const repository =
            typeof pkg.repository === 'string' ? pkg.repository : (pkg.repository?.url ?? '');
          found.push({ name: pkg.name, version: pkg.version, dir, repository });
        }
        visit(path.join(dir, 'node_modules'));
      }
    }
  };
  visit(path.join(appDir, 'node_modules'));
  return found;
}

/** Nothing above the app may offer a node_modules or a tsconfig.json (the whole point of the temp folder). */
function ancestorsLeak(appDir: string): string[] {
  const leaks: string[] = [];
  for (let dir = path.dirname(appDir); ; dir = path.dirname(dir)) {
    for (const name of ['node_modules', 'tsconfig.json', 'package.json'])
      if (existsSync(path.join(dir, name))) leaks.push(path.join(dir, name));
    if (path.dirname(dir) === dir) break;
  }
  return leaks;
}

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
    await check('installing the plugin prints no peer dependency warning', () => {
      const warnings = installOut
        .split('\n')
        .filter((l) => /ERESOLVE|peer dep|conflicting peer|could not resolve/i.test(l));
      assert(warnings.length === 0, warnings.slice(0, 10).join('\n'));
    });
    const installed = path.join(appDir, 'node_modules', PKG.name);
    await check('installed plugin has no private copy of a package it shares with Strapi', () => {
      const nested = MUST_BE_STRAPIS_COPY.filter((name) =>
        existsSync(path.join(installed, 'node_modules', name))
      );
      assert(nested.length === 0, `nested under ${installed}/node_modules: ${nested.join(', ')}`);
    });
    await check(
      `every package of Strapi's own repository in the app is ${STRAPI_VERSION}; one copy of the design system and icons`,
      () => {
        const strapis = installedStrapiPackages(appDir);
        const own = strapis.filter((p) =>
          /github\.com\/strapi\/strapi(\.git)?$/.test(p.repository)
        );
        assert(
          own.some((p) => p.name === '@strapi/strapi'),
          `no @strapi/strapi among ${strapis.map((p) => p.name).join(', ')}`
        );
        const other = own.filter((p) => p.version !== STRAPI_VERSION);
        assert(
          other.length === 0,
          other.map((p) => `${p.name}@${p.version} (${path.relative(appDir, p.dir)})`).join(', ')
        );
        for (const name of ['@strapi/design-system', '@strapi/icons']) {
          const copies = strapis.filter((p) => p.name === name);
          assert(
            copies.length === 1,
            `${name}: ${copies.map((p) => `${p.version} (${path.relative(appDir, p.dir)})`).join(', ') || 'not installed'}`
          );
        }
      }
    );
    await check('npm ls reports no missing or invalid dependency of the plugin', async () => {
      let out = '';
      try {
        out = await run('npm', ['ls', '--all', '--json'], { cwd: appDir });
      } catch (err) {
        out = errorText(err); // npm ls exits 1 on any problem in the tree, Strapi's own included
      }
      const json = out.slice(out.indexOf('{'), out.lastIndexOf('}') + 1);
      const problems: string[] = (JSON.parse(json).problems ?? []) as string[];
      const ours = problems.filter((p) => p.includes(PKG.name));
      assert(ours.length === 0, ours.join('\n'));
    });
    await check("the plugin's runtime dependencies resolve from the app", () => {
      const missing = Object.keys(PKG.dependencies ?? {}).filter((dep) => {
        try {
          require.resolve(`${dep}/package.json`, { paths: [installed] });
          return false;
        } catch {
          return (
            !existsSync(path.join(appDir, 'node_modules', dep)) &&
            !existsSync(path.join(installed, 'node_modules', dep))
          );
        }
      });
      assert(missing.length === 0, `missing: ${missing.join(', ')}`);
    });

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
    const buildDir = [path.join(appDir, 'dist', 'build'), path.join(appDir, 'build')].find((d) =>
      existsSync(path.join(d, 'index.html'))
    );
    await check('the admin build exists', () =>
      assert(buildDir, `no index.html in ${appDir}/build or ${appDir}/dist/build`)
    );
    if (buildDir) {
      const built = readdirSync(buildDir).filter((f) => f.endsWith('.js'));
      const read = (f: string) => readFileSync(path.join(buildDir, f), 'utf8');
      await check("the admin entry Strapi generated imports the plugin's admin", () => {
        const entry = path.join(appDir, '.strapi', 'client', 'app.js');
        assert(existsSync(entry), `no ${entry}`);
        assert(
          readFileSync(entry, 'utf8').includes(`${PKG.name}/strapi-admin`),
          `${entry} does not import ${PKG.name}/strapi-admin`
        );
      });
      await check("the built admin holds the plugin's settings page chunk", () => {
        const ours = readdirSync(path.join(installed, 'dist', 'admin')).find((f) =>
          /^SettingsPage-.*\.mjs$/.test(f)
        );
        assert(ours, 'the package has no SettingsPage chunk in dist/admin');
        const prefix = ours.replace(/\.mjs$/, '');
        const chunk = built.find((f) => f.startsWith(`${prefix}-`) || f === `${prefix}.js`);
        assert(chunk, `no ${prefix}-*.js in ${buildDir}`);
        assert(read(chunk).includes(PLUGIN_ID), `${chunk} does not mention ${PLUGIN_ID}`);
      });
      await check("the built admin holds the plugin's English translations", () => {
        const en = JSON.parse(
          readFileSync(path.join(ROOT, 'admin', 'src', 'translations', 'en.json'), 'utf8')
        ) as Record<string, string>;
        const sample = Object.entries(en)
          .filter(([k, v]) => k.startsWith('settings.') && /^[\w .,:()-]+$/.test(v))
          .sort((a, b) => b[1].length - a[1].length)[0];
        assert(sample, 'no settings.* translation to look for');
        const holder = built.find((f) => read(f).includes(sample[1]));
        assert(holder, `"${sample[1]}" (${sample[0]}) is in no file of ${buildDir}`);
      });
    }

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
