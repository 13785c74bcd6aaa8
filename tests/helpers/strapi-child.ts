/**
 * A real Strapi (the playground copy in APP_DIR) in its own plain-Node process, driven over IPC
 * by tests/helpers/child-app.ts. For what jest cannot host (SIGKILL, two instances on one
 * database) and for the benchmarks.
 *
 *   node tests/helpers/node.js strapi-child      (env: APP_DIR + the env of app-dir.ts appEnv())
 *
 * This file is compiled by tsx (node.js), Strapi is not (it does not boot under tsx): Strapi and
 * what a `run` function requires are loaded by plain Node requires (createRequire), outside tsx.
 *
 * Messages in: { id, cmd, args }. Out: { id, ok, value | error }, plus { event: 'ready' } once
 * loaded and { event: 'log', line } for each log line when LC_CHILD_FORWARD_LOGS=1.
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Core } from '@strapi/strapi';
import type { SyncService } from '../../shared/contracts/sync';
import { listenLocally, loadStrapi } from './boot';
import type { ChildHelpers, ChildState } from './child-app';
import { seedPlaces } from './seed';

const APP_DIR = process.env.APP_DIR;
const send = process.send?.bind(process);
if (!APP_DIR || !send) {
  process.stderr.write(
    'strapi-child: run me through tests/helpers/child-app.ts (APP_DIR and an IPC channel are needed)\n'
  );
  process.exit(2);
}

const PLUGIN = 'location-content';
/** Plain Node's require, beside this file (a name without tsx's query): what tsx must not compile. */
const plainRequire = createRequire(path.join(__dirname, 'strapi-child.ts'));
let strapi: Core.Strapi | undefined;
let rssPeak = 0;
let rssTimer: NodeJS.Timeout | undefined;

const loaded = (): Core.Strapi => {
  if (!strapi) throw new Error('strapi-child: Strapi is not loaded yet');
  return strapi;
};
const sync = (): SyncService => loaded().plugin(PLUGIN).service('sync') as SyncService;

/** Sync states as plain rows (every column the engine keeps), read straight from the table. */
async function states(where: Record<string, unknown> = {}): Promise<ChildState[]> {
  const { db } = loaded();
  const meta = db.metadata.get('plugin::location-content.sync-state');
  const col = (a: string) =>
    (meta.attributes[a] as { columnName?: string } | undefined)?.columnName ?? a;
  const rows: Array<Record<string, unknown>> = await db.connection(meta.tableName).where(where);
  return rows.map((r) => ({
    contentType: String(r[col('contentType')]),
    documentId: String(r[col('entryDocumentId')]),
    locale: String(r[col('entryLocale')] ?? ''),
    status: String(r[col('status')]),
    remoteId: r[col('remoteId')] == null ? null : Number(r[col('remoteId')]),
    lastError: (r[col('lastError')] as string | null) ?? null,
    attempts: Number(r[col('attempts')] ?? 0),
  }));
}

async function outboxDepth(): Promise<number> {
  const { db } = loaded();
  const meta = db.metadata.get('plugin::location-content.outbox-entry');
  const [{ n }] = await db.connection(meta.tableName).count({ n: '*' });
  return Number(n);
}

type RunFn = (strapi: Core.Strapi, args: unknown, helpers: ChildHelpers) => unknown;

const commands: Record<string, (args: never) => unknown> = {
  ping: () => 'pong',
  pid: () => process.pid,
  memory: () => ({ ...process.memoryUsage(), rssPeak }),
  /** Starts sampling RSS every `everyMs` (resets the peak). */
  rssWatch: ({ everyMs = 20 }: { everyMs?: number } = {}) => {
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
  seedPlaces: (args: unknown) => seedPlaces(loaded(), args as Parameters<typeof seedPlaces>[1]),
  /** a resync as a server starts it (its dry run is the sync service's, in `run`) */
  resync: () => sync().resync(),
  status: () => sync().status(),
  idle: async ({ timeoutMs = 120_000 }: { timeoutMs?: number } = {}) => {
    await sync().idle({ timeoutMs });
    return true;
  },
  states: (args?: { where?: Record<string, unknown> }) => states(args?.where),
  outboxDepth: () => outboxDepth(),
  /** Runs a function given as source: `async (strapi, args, helpers) => value`. Test and bench code only. */
  run: async ({ source, args }: { source: string; args: unknown }) => {
    // eslint-disable-next-line no-new-func
    const fn = new Function(`return (${source});`)() as RunFn;
    return fn(loaded(), args, {
      sync,
      states,
      outboxDepth,
      seedPlaces: (s, a) => seedPlaces(s, a as Parameters<typeof seedPlaces>[1]),
      require: plainRequire,
    });
  },
  stop: async () => {
    clearInterval(rssTimer);
    await loaded().destroy();
    setImmediate(() => process.exit(0));
    return true;
  },
};

/** Sends a reply; a value that cannot be cloned (functions, sockets) goes as its JSON form. */
const reply = (msg: { id: number; ok: boolean; value?: unknown; error?: unknown }) => {
  try {
    send!(msg);
  } catch {
    let value: unknown;
    try {
      value = JSON.parse(JSON.stringify(msg.value ?? null));
    } catch {
      value = String(msg.value);
    }
    send!({ ...msg, value });
  }
};

process.on('message', async (msg: { id?: number; cmd?: string; args?: unknown } | null) => {
  if (!msg || typeof msg !== 'object' || msg.id === undefined) return;
  const handler = msg.cmd ? commands[msg.cmd] : undefined;
  try {
    if (!handler) throw new Error(`strapi-child: unknown command ${msg.cmd}`);
    if (msg.cmd !== 'ping' && msg.cmd !== 'pid') loaded();
    const value = await handler(msg.args as never);
    reply({ id: msg.id, ok: true, value });
  } catch (err) {
    const e = err as Error | undefined;
    reply({
      id: msg.id,
      ok: false,
      error: { message: e?.message ?? String(err), stack: e?.stack },
    });
  }
});

// The parent went away (jest ended, the bench crashed): do not linger.
process.on('disconnect', () => process.exit(0));

async function main(appDir: string) {
  const { createStrapi } = createRequire(path.join(appDir, 'package.json'))('@strapi/strapi');
  strapi = await loadStrapi({
    createStrapi,
    appDir,
    onLog:
      process.env.LC_CHILD_FORWARD_LOGS === '1'
        ? (line) => send!({ event: 'log', line })
        : undefined,
    // LC_CHILD_LINK_WALK=background: ready at once, the walk of a linked account goes on.
    linkWalkMs: process.env.LC_CHILD_LINK_WALK === 'background' ? false : undefined,
  });
  const url = process.env.LC_CHILD_HTTP === '1' ? await listenLocally(strapi) : null;
  send!({ event: 'ready', pid: process.pid, url, appDir: path.resolve(appDir) });
}

main(APP_DIR!).catch((err) => {
  process.stderr.write(`strapi-child: boot failed: ${err?.stack ?? err}\n`);
  process.exit(1);
});
