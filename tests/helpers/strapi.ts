import path from 'node:path';
import type { Core } from '@strapi/strapi';
import { startEmulator, type EmulatorHandle, type EmulatorOptions } from '../../emulator/src';
import type { PluginConfig } from '../../server/src/config';
import { makeAppDir, removeDir } from './app-dir';
import type { StrapiHost } from './strapi-environment';
import { databaseEnv } from './test-db';

export const ROOT = path.resolve(__dirname, '..', '..');

export interface TestApp {
  strapi: Core.Strapi;
  emulator: EmulatorHandle;
  appDir: string;
  /** http://127.0.0.1:PORT when started with `http: true` */
  url?: string;
  logs: string[];
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- typed as SyncService, ~60 test lines read members it does not declare
  sync(): any;
  stop(): Promise<void>;
}

/** A test app's config/plugins.js as patchConfig gets it: the plugin's entry beside Strapi's. */
export interface PluginsConfig {
  'location-content': { enabled?: boolean; config: PluginConfig };
  [plugin: string]: unknown;
}

export interface TestAppOptions {
  emulator?: EmulatorOptions;
  /** changes the playground's plugin config (functions such as transform are allowed) */
  patchConfig?: (config: PluginsConfig) => PluginsConfig;
  /** listen on 127.0.0.1 for HTTP tests */
  http?: boolean;
  env?: Record<string, string>;
  /** reuse an app folder (restart tests) */
  appDir?: string;
  /** reuse a running emulator */
  emulatorHandle?: EmulatorHandle;
  /** serve the admin panel built into `<appDir>/build` (browser tests) */
  serveAdminPanel?: boolean;
}

/** A copy of the playground in a temp folder, so each test file has its own database and files. */
export { makeAppDir, removeDir } from './app-dir';

/** Test-friendly retry and rate settings: fast backoff, generous rate. */
export const fastSync = (config: PluginsConfig) => {
  const lc = config['location-content'].config;
  lc.retry = { baseMs: 50, maxMs: 500, maxAttempts: 8 };
  lc.rateLimit = { requestsPerSecond: 500, concurrency: 4 };
  lc.requestTimeoutMs = 5000;
  // A lone change goes out at once whatever this is; a wide window keeps a loop of saves one burst on a loaded machine.
  lc.coalesce = { settleMs: 250, maxWaitMs: 3000 };
  return config;
};

/** The worker's Strapi (tests/helpers/strapi-environment.ts), when the project runs in that environment. */
const host = () => (globalThis as { __LC_HOST__?: StrapiHost }).__LC_HOST__;

/** The globalThis the test apps' Strapi and plugin read (the worker's under strapi-environment). */
export const strapiGlobal = (): Record<PropertyKey, unknown> =>
  (host()?.global ?? globalThis) as unknown as Record<PropertyKey, unknown>;

async function loadCreateStrapi(): Promise<typeof import('@strapi/strapi').createStrapi> {
  const worker = host();
  if (!worker) return (await import('@strapi/strapi')).createStrapi;
  worker.forgetAppModules();
  return worker.require('@strapi/strapi').createStrapi;
}

export async function startApp(options: TestAppOptions = {}): Promise<TestApp> {
  const emulator =
    options.emulatorHandle ?? (await startEmulator({ strict: true, ...options.emulator }));
  const appDir = options.appDir ?? (await makeAppDir());
  const env: Record<string, string> = {
    LOCATION_CONTENT_PLUGIN_PATH: ROOT,
    ...databaseEnv(appDir),
    LOCATION_CONTENT_BASE_URL: emulator.baseUrl,
    LOCATION_CONTENT_CLIENT_ID: emulator.clientId,
    LOCATION_CONTENT_CLIENT_SECRET: emulator.clientSecret,
    STRAPI_LOG_LEVEL: process.env.STRAPI_LOG_LEVEL ?? 'warn',
    STRAPI_TELEMETRY_DISABLED: 'true',
    HOST: '127.0.0.1',
    PORT: '0',
    ...options.env,
  };
  Object.assign(process.env, env);
  strapiGlobal().__LOCATION_CONTENT_TEST_PATCH__ = (config: PluginsConfig) => {
    const fast = fastSync(config);
    return options.patchConfig ? options.patchConfig(fast) : fast;
  };

  const createStrapi = await loadCreateStrapi();
  const created = createStrapi({
    appDir,
    distDir: appDir,
    autoReload: false,
    serveAdminPanel: options.serveAdminPanel ?? false,
  });
  // Before load(), so that what the plugin logs at boot is kept too.
  const logs: string[] = [];
  captureLogs(created, logs);
  const strapi = await created.load();
  const worker = host();
  if (worker) {
    const destroy = strapi.destroy.bind(strapi);
    strapi.destroy = () => worker.keepProcessListeners(destroy);
  }
  // An account linked and never walked is walked at the first boot (walkOnLink): a test starts
  // once that walk is over, as a user's app is soon after linking, so that its GETs are not counted.
  const sync = () => strapi.plugin('location-content').service('sync');
  for (const end = Date.now() + 60_000; (await sync().status()).inventory.state === 'running';) {
    if (Date.now() > end) throw new Error('the walk of the linked account did not end in 60 s');
    await new Promise((r) => setTimeout(r, 20));
  }

  let url: string | undefined;
  if (options.http) {
    // strapi.server.listen mounts the routes first (httpServer.listen alone answers 404 everywhere).
    await new Promise<void>((resolve) => strapi.server.listen(0, '127.0.0.1', () => resolve()));
    // Node closes an idle keep-alive socket after 5 s, and a loaded machine lets fetch reuse it in
    // that very moment (ECONNRESET); a test rarely pauses a minute between two requests.
    strapi.server.httpServer.keepAliveTimeout = 65_000;
    const address = strapi.server.httpServer.address() as { port: number };
    url = `http://127.0.0.1:${address.port}`;
  }

  return {
    strapi,
    emulator,
    appDir,
    url,
    logs,
    sync,
    async stop() {
      if (options.http) strapi.server.httpServer.closeAllConnections?.();
      await strapi.destroy();
      if (!options.emulatorHandle) await emulator.stop();
      delete strapiGlobal().__LOCATION_CONTENT_TEST_PATCH__;
    },
  };
}

/** Keeps every log line, so tests can check what reached the log (secrets must not). */
function captureLogs(strapi: Core.Strapi, into: string[]) {
  const log = strapi.log as unknown as Record<string, (...args: unknown[]) => unknown>;
  for (const level of ['error', 'warn', 'info', 'http', 'debug']) {
    const original = log[level]?.bind(log);
    if (!original) continue;
    log[level] = (...args: unknown[]) => {
      into.push(
        `${level}: ${args.map((a) => (typeof a === 'string' ? a : JSON.stringify(a))).join(' ')}`
      );
      return original(...args);
    };
  }
}

/**
 * Stops a test app (if it started) and removes its directory: the `afterAll` of a test file.
 * `settle`: first lets the sync finish what the last test started (a minute at most), so that
 * the stop does not cut a push in the middle.
 */
export async function stopApp(app: TestApp | undefined, { settle = false } = {}) {
  if (settle)
    await app
      ?.sync()
      .idle({ timeoutMs: 60_000 })
      .catch(() => undefined);
  await app?.stop();
  if (app) await removeDir(app.appDir);
}
