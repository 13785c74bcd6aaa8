/**
 * Booting a Strapi app, the one way of every harness: jest's in-process apps (strapi.ts), the
 * child process of the fault tests, the CLI tests and the benchmarks (strapi-child.ts), and
 * `npm run demo` (scripts/demo.js). No import of Strapi here: each caller hands its own
 * createStrapi (the jest worker's, the app's own under plain Node).
 */
import type { Core } from '@strapi/strapi';
import { until } from './sync';

type CreateStrapi = (options: {
  appDir: string;
  distDir: string;
  autoReload?: boolean;
  serveAdminPanel?: boolean;
}) => Core.Strapi;

export interface BootOptions {
  createStrapi: CreateStrapi;
  appDir: string;
  /** serve the admin panel built into `<appDir>/build` (default false) */
  serveAdminPanel?: boolean;
  /** each Strapi log line as `level: text`, from before load() so the plugin's boot lines too */
  onLog?: (line: string) => void;
  /** how long the walk of a linked account may take (`false`: do not wait for it) */
  linkWalkMs?: number | false;
}

const LEVELS = ['error', 'warn', 'info', 'http', 'debug'] as const;

/** Hands every log line to `onLog` before it goes where Strapi sends it. */
function tapLog(strapi: Core.Strapi, onLog: (line: string) => void) {
  const log = strapi.log as unknown as Record<
    string,
    ((...args: unknown[]) => unknown) | undefined
  >;
  for (const level of LEVELS) {
    const original = log[level]?.bind(log);
    if (!original) continue;
    log[level] = (...args: unknown[]) => {
      onLog(
        `${level}: ${args.map((a) => (typeof a === 'string' ? a : JSON.stringify(a))).join(' ')}`
      );
      return original(...args);
    };
  }
}

/**
 * Creates and loads (registers, bootstraps; no listening) the app of `appDir`. An account linked
 * and never walked is walked at the first boot (walkOnLink): the app is handed over once that walk
 * is over, as a user's app is soon after linking, so that a test or bench does not count its GETs.
 */
export async function loadStrapi(options: BootOptions): Promise<Core.Strapi> {
  const created = options.createStrapi({
    appDir: options.appDir,
    distDir: options.appDir,
    autoReload: false,
    serveAdminPanel: options.serveAdminPanel ?? false,
  });
  if (options.onLog) tapLog(created, options.onLog);
  const strapi = await created.load();
  const walkMs = options.linkWalkMs ?? 120_000;
  // Not with the plugin disabled (bench:save's side without it).
  if (walkMs !== false && strapi.plugin('location-content')) {
    const sync = () => strapi.plugin('location-content').service('sync');
    await until(
      async () => (await sync().status()).inventory.state !== 'running',
      'the end of the walk of the linked account',
      walkMs
    );
  }
  return strapi;
}

/** Listens on 127.0.0.1, a free port; resolves with the app's base URL. */
export async function listenLocally(strapi: Core.Strapi): Promise<string> {
  // strapi.server.listen mounts the routes first (httpServer.listen alone answers 404 everywhere).
  await new Promise<void>((resolve) => strapi.server.listen(0, '127.0.0.1', () => resolve()));
  // Node closes an idle keep-alive socket after 5 s, and a loaded machine lets fetch reuse it in
  // that very moment (ECONNRESET); a test rarely pauses a minute between two requests.
  strapi.server.httpServer.keepAliveTimeout = 65_000;
  const address = strapi.server.httpServer.address() as { port: number };
  return `http://127.0.0.1:${address.port}`;
}
