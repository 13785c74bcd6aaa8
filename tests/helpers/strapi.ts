import type { Core } from '@strapi/strapi';
import type { Services } from '../../server/src/utils';
import { startEmulator, type EmulatorHandle, type EmulatorOptions } from '../../emulator/src';
import { appEnv, makeAppDir, removeDir, type PlaygroundConfig } from './app-dir';
import { listenLocally, loadStrapi } from './boot';
import type { StrapiHost } from './strapi-environment';

export { ROOT } from './app-dir';

export interface TestApp {
  strapi: Core.Strapi;
  emulator: EmulatorHandle;
  appDir: string;
  /** http://127.0.0.1:PORT when started with `http: true` */
  url?: string;
  logs: string[];
  /** the plugin's sync service as its typed getter answers it (the contract, then what the factory adds) */
  sync(): Services['sync'];
  stop(): Promise<void>;
}

export interface TestAppOptions {
  emulator?: EmulatorOptions;
  /** changes the playground's plugin config (functions such as transform are allowed) */
  patchConfig?: (config: PlaygroundConfig) => PlaygroundConfig;
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
export const fastSync = (config: PlaygroundConfig) => {
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
  Object.assign(process.env, appEnv({ appDir, emulator, env: options.env }));
  strapiGlobal().__LOCATION_CONTENT_TEST_PATCH__ = (config: PlaygroundConfig) => {
    const fast = fastSync(config);
    return options.patchConfig ? options.patchConfig(fast) : fast;
  };

  const logs: string[] = [];
  const restoreListeners = host()?.processListeners();
  const strapi = await loadStrapi({
    createStrapi: await loadCreateStrapi(),
    appDir,
    serveAdminPanel: options.serveAdminPanel,
    onLog: (line) => logs.push(line),
  }).catch((err: unknown) => {
    restoreListeners?.();
    throw err;
  });
  if (restoreListeners) {
    const destroy = strapi.destroy.bind(strapi);
    strapi.destroy = () => destroy().finally(restoreListeners);
  }
  const sync = () => strapi.plugin('location-content').service('sync') as Services['sync'];
  const url = options.http ? await listenLocally(strapi) : undefined;

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
