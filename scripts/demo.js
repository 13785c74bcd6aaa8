/**
 * One command demo: emulator + the playground Strapi with its admin + sample content, syncing.
 *   npm run demo
 * Everything listens on 127.0.0.1. Ctrl+C stops it.
 *
 * Plain Node on purpose: Strapi does not boot under tsx (its koa check of generator functions
 * fails there), so the TypeScript emulator runs as a child process.
 */
const { execSync, spawn } = require('node:child_process');
const { mkdirSync } = require('node:fs');
const { createServer } = require('node:net');
const path = require('node:path');
const { builtAt, newestMtime } = require('./mtimes');
const { seedSampleContent } = require('./sample-content');
// The admin build shared with the browser tests (TypeScript, compiled by tsx for this one module:
// Strapi itself does not boot under tsx).
const { builtAdmin } = require('tsx/cjs/api').require('./admin-build.ts', __filename);
// The super admin the browser tests log in as, made the same way; Strapi booted as every test and
// bench boots it (the helpers are TypeScript, compiled by tsx one by one).
const helper = require('../tests/helpers/node');
const { ensureSuperAdmin } = helper('admin-api');
const { loadStrapi } = helper('boot');

const ROOT = path.resolve(__dirname, '..');
const PLAYGROUND = path.join(ROOT, 'playground');
const ADMIN_EMAIL = process.env.DEMO_ADMIN_EMAIL || 'admin@example.com';
const ADMIN_PASSWORD = process.env.DEMO_ADMIN_PASSWORD || 'Demo-Passw0rd';
const EMULATOR_PORT = process.env.EMULATOR_PORT || '4010';
const PORT = process.env.PORT || '1337';

const run = (cmd, cwd = ROOT) =>
  execSync(cmd, { cwd, stdio: 'inherit', env: { ...process.env, NODE_ENV: 'production' } });

/** Starts the emulator CLI and resolves with its base URL once it listens. */
const startEmulator = () =>
  new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [
        require.resolve('tsx/cli'),
        'emulator/src/cli.ts',
        '--port',
        EMULATOR_PORT,
        '--strict',
        '--rate',
        '20',
        '--burst',
        '20',
      ],
      { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] }
    );
    let out = '';
    child.stdout.on('data', (chunk) => {
      out += chunk;
      const match = out.match(/https?:\/\/127\.0\.0\.1:\d+/);
      if (match) resolve({ child, baseUrl: match[0] });
    });
    child.once('exit', (code) => reject(new Error(`the emulator exited (${code}):\n${out}`)));
  });

/** A port of the demo is in use: what to do about it is the whole message. */
class PortTaken extends Error {}

/** Resolves when nothing listens on 127.0.0.1:port, else rejects with what to do about it. */
const portFree = (port, envName) =>
  new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', (err) =>
      reject(
        new PortTaken(
          err.code === 'EADDRINUSE'
            ? `127.0.0.1:${port} is taken (a demo still running?): stop what listens there, or set ${envName}`
            : `127.0.0.1:${port}: ${err.message}`
        )
      )
    );
    probe.listen(Number(port), '127.0.0.1', () => probe.close(resolve));
  });

async function main() {
  // Before a minute of building: Strapi itself says nothing readable when its port is taken.
  await portFree(PORT, 'PORT');
  await portFree(EMULATOR_PORT, 'EMULATOR_PORT');
  const dist = ['server/index.js', 'admin/index.mjs'].map((f) => path.join(ROOT, 'dist', f));
  const sources = ['server/src', 'admin/src', 'shared', 'package.json', 'package-lock.json'];
  if (builtAt(dist) < Math.max(...sources.map((p) => newestMtime(path.join(ROOT, p))))) {
    console.log('> building the plugin (dist/)');
    run('npx strapi-plugin build');
  } else console.log('> the plugin in dist/ is newer than its sources');
  // The admin bundle embeds the plugin's admin: built again only when what it is made of changed,
  // and taken from the browser tests' build when they made it first (scripts/admin-build.ts).
  const admin = await builtAdmin(PLAYGROUND, {
    onBuild: () => console.log('> building the playground admin (about a minute)'),
  });
  if (admin === 'copied')
    console.log('> the playground admin, from the last build of the same sources');
  mkdirSync(path.join(PLAYGROUND, 'public', 'uploads'), { recursive: true });

  const emulator = await startEmulator();
  // A failed start exits with the emulator still up: it would hold its port for the next demo.
  process.once('exit', () => {
    if (emulator.child.exitCode === null) emulator.child.kill('SIGTERM');
  });
  const clientId = 'demo-client';
  const clientSecret = 'demo-secret';
  Object.assign(process.env, {
    HOST: '127.0.0.1',
    PORT,
    LOCATION_CONTENT_BASE_URL: emulator.baseUrl,
    LOCATION_CONTENT_CLIENT_ID: clientId,
    LOCATION_CONTENT_CLIENT_SECRET: clientSecret,
    STRAPI_TELEMETRY_DISABLED: 'true',
  });

  const strapi = await loadStrapi({
    createStrapi: require('@strapi/strapi').createStrapi,
    appDir: PLAYGROUND,
    serveAdminPanel: true,
    // The account is new and the walk at its first boot short: the demo does not wait for it.
    linkWalkMs: false,
  });
  // Before listen: Strapi's banner tells whoever has no admin user yet to create one.
  await ensureSuperAdmin(strapi, {
    email: ADMIN_EMAIL,
    password: ADMIN_PASSWORD,
    firstname: 'Demo',
    lastname: 'Admin',
  });
  await strapi.listen();

  const seeded = await seedSampleContent(strapi);
  const sync = strapi.plugin('location-content').service('sync');
  if (!seeded) {
    // The emulator keeps nothing between runs: what the plugin recorded about the previous run's
    // remote objects points at nothing now. Forget it and push everything again.
    for (const uid of ['outbox-entry', 'sync-ref', 'sync-state'])
      await strapi.db.query(`plugin::location-content.${uid}`).deleteMany({});
    await sync.resync();
  }
  await sync.idle({ timeoutMs: 120000 }).catch(() => undefined);
  const status = await sync.status();
  const remote = await (await fetch(`${emulator.baseUrl}/__emulator/state`)).json();

  const url = `http://127.0.0.1:${PORT}`;
  console.log(`
┌ Location Content demo ───────────────────────────────────────────
│ Strapi admin      ${url}/admin
│   login           ${ADMIN_EMAIL} / ${ADMIN_PASSWORD}
│   sync dashboard  ${url}/admin/plugins/location-content
│   settings        ${url}/admin/settings/location-content
│ Emulator API      ${emulator.baseUrl}/v3.0   (client ${clientId} / ${clientSecret})
│   its state       ${emulator.baseUrl}/__emulator/state
│ Sample content    ${seeded ? 'created now' : 'already there'}
│ On the map        ${remote.pinpoints.length} pinpoints, ${remote.events.length} events, ${remote.categories.length} categories, ${remote.lists.length} lists
│ Sync status       ${Object.entries(status.counts)
    .map(([k, v]) => `${k} ${v}`)
    .join(', ')}
│ (one place has no coordinates on purpose: it shows as failed with its reason)
└ Ctrl+C stops everything ─────────────────────────────────────────
`);

  // The emulator first: strapi.destroy() removes every listener of `process`, the 'exit' one above
  // with them, and Strapi's own signal handler exits right after it.
  const stop = async () => {
    emulator.child.kill('SIGTERM');
    await strapi.destroy();
    process.exit(0);
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((err) => {
  console.error(err instanceof PortTaken ? `demo: ${err.message}` : err);
  process.exit(1);
});
