/**
 * A real Strapi (the playground copy in APP_DIR) in its own plain-Node process, driven over IPC
 * by tests/helpers/child-app.ts. For what jest cannot host (SIGKILL, two instances on one
 * database) and for the benchmarks (Strapi does not boot under tsx).
 *
 *   node tests/helpers/strapi-child.js      (env: APP_DIR + the env of app-dir.ts appEnv())
 *
 * Messages in: { id, cmd, args }. Out: { id, ok, value | error }, plus { event: 'ready' } once
 * loaded and { event: 'log', line } for each log line when LC_CHILD_FORWARD_LOGS=1.
 */
const path = require('node:path');
// seed.ts through tsx, scoped to it: Strapi itself does not boot under tsx.
const { seedPlaces } = require('./node')('seed');

const APP_DIR = process.env.APP_DIR;
if (!APP_DIR || !process.send) {
  process.stderr.write(
    'strapi-child: run me through tests/helpers/child-app.ts (APP_DIR and an IPC channel are needed)\n'
  );
  process.exit(2);
}

const PLUGIN = 'location-content';
let strapi;
let rssPeak = 0;
let rssTimer;

const sync = () => strapi.plugin(PLUGIN).service('sync');

/** Sync states as plain rows (every column the engine keeps), read straight from the table. */
async function states(where = {}) {
  const meta = strapi.db.metadata.get('plugin::location-content.sync-state');
  const col = (a) => meta.attributes[a]?.columnName ?? a;
  const rows = await strapi.db.connection(meta.tableName).where(where);
  return rows.map((r) => ({
    contentType: r[col('contentType')],
    documentId: r[col('entryDocumentId')],
    locale: r[col('entryLocale')] ?? '',
    status: r[col('status')],
    remoteId: r[col('remoteId')] == null ? null : Number(r[col('remoteId')]),
    lastError: r[col('lastError')] ?? null,
    attempts: Number(r[col('attempts')] ?? 0),
  }));
}

async function outboxDepth() {
  const meta = strapi.db.metadata.get('plugin::location-content.outbox-entry');
  const [{ n }] = await strapi.db.connection(meta.tableName).count({ n: '*' });
  return Number(n);
}

const commands = {
  ping: () => 'pong',
  pid: () => process.pid,
  memory: () => ({ ...process.memoryUsage(), rssPeak }),
  /** Starts sampling RSS every `everyMs` (resets the peak). */
  rssWatch: ({ everyMs = 20 } = {}) => {
    clearInterval(rssTimer);
    rssPeak = process.memoryUsage().rss;
    rssTimer = setInterval(() => {
      const rss = process.memoryUsage().rss;
      if (rss > rssPeak) rssPeak = rss;
    }, everyMs);
    return rssPeak;
  },
  gc: () => {
    if (global.gc) {
      global.gc();
      global.gc();
    }
    return process.memoryUsage();
  },
  seedPlaces: (args) => seedPlaces(strapi, args),
  resync: (args) => sync().resync(args ?? {}),
  status: () => sync().status(),
  idle: async ({ timeoutMs = 120_000 } = {}) => {
    await sync().idle({ timeoutMs });
    return true;
  },
  states: (args) => states(args?.where),
  outboxDepth: () => outboxDepth(),
  /** Runs a function given as source: `async (strapi, args, helpers) => value`. Test and bench code only. */
  run: async ({ source, args }) => {
    // eslint-disable-next-line no-new-func
    const fn = new Function(`return (${source});`)();
    return fn(strapi, args, { sync, states, outboxDepth, seedPlaces, require });
  },
  stop: async () => {
    clearInterval(rssTimer);
    await strapi.destroy();
    setImmediate(() => process.exit(0));
    return true;
  },
};

/** Sends a reply; a value that cannot be cloned (functions, sockets) goes as its JSON form. */
const send = (msg) => {
  try {
    process.send(msg);
  } catch {
    let value;
    try {
      value = JSON.parse(JSON.stringify(msg.value ?? null));
    } catch {
      value = String(msg.value);
    }
    process.send({ ...msg, value });
  }
};

const serializeError = (err) => ({ message: err?.message ?? String(err), stack: err?.stack });

process.on('message', async (msg) => {
  if (!msg || typeof msg !== 'object' || msg.id === undefined) return;
  const handler = commands[msg.cmd];
  try {
    if (!handler) throw new Error(`strapi-child: unknown command ${msg.cmd}`);
    if (!strapi && msg.cmd !== 'ping' && msg.cmd !== 'pid')
      throw new Error('strapi-child: Strapi is not loaded yet');
    const value = await handler(msg.args);
    send({ id: msg.id, ok: true, value });
  } catch (err) {
    send({ id: msg.id, ok: false, error: serializeError(err) });
  }
});

// The parent went away (jest ended, the bench crashed): do not linger.
process.on('disconnect', () => process.exit(0));

async function main() {
  const { createStrapi } = require('@strapi/strapi');
  strapi = await createStrapi({
    appDir: APP_DIR,
    distDir: APP_DIR,
    autoReload: false,
    serveAdminPanel: false,
  }).load();
  if (process.env.LC_CHILD_FORWARD_LOGS === '1') {
    const log = strapi.log;
    for (const level of ['error', 'warn', 'info', 'http', 'debug']) {
      const original = log[level]?.bind(log);
      if (!original) continue;
      log[level] = (...args) => {
        process.send({
          event: 'log',
          line: `${level}: ${args.map((a) => (typeof a === 'string' ? a : JSON.stringify(a))).join(' ')}`,
        });
        return original(...args);
      };
    }
  }
  // An account linked and never walked is walked at the first boot (walkOnLink): the app is ready
  // once that walk is over, as a user's app is soon after linking (LC_CHILD_LINK_WALK=background: at once).
  // (Not with the plugin disabled: bench:save's side without it.)
  if (process.env.LC_CHILD_LINK_WALK !== 'background' && strapi.plugin(PLUGIN))
    for (const end = Date.now() + 120_000; (await sync().status()).inventory.state === 'running';) {
      if (Date.now() > end) throw new Error('the walk of the linked account did not end in 120 s');
      await new Promise((r) => setTimeout(r, 20));
    }
  if (process.env.LC_CHILD_HTTP === '1') {
    await new Promise((resolve) => strapi.server.httpServer.listen(0, '127.0.0.1', resolve));
  }
  const address = process.env.LC_CHILD_HTTP === '1' ? strapi.server.httpServer.address() : null;
  process.send({
    event: 'ready',
    pid: process.pid,
    url: address ? `http://127.0.0.1:${address.port}` : null,
    appDir: path.resolve(APP_DIR),
  });
}

main().catch((err) => {
  process.stderr.write(`strapi-child: boot failed: ${err?.stack ?? err}\n`);
  process.exit(1);
});
