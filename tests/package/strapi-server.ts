/**
 * The app's `strapi start`, pointed at the Location Content API emulator, and its stop; what it
 * printed is kept for the log check and for the tail shown when something fails.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import type { EmulatorHandle } from '../../emulator/src';
import { collectOutput, groupAlive, killGroup, sleep, tail, userEnv, waitFor } from './processes';
import { assert, check, errorText, log } from './report';

/** The running app: its process group leader (npx) while it runs, and everything it printed. */
export interface StrapiServer {
  proc?: ChildProcess;
  out: string;
}

/** The environment `strapi build` and `strapi start` get: a production app, nothing phoning home. */
export const appEnv = (extra: Record<string, string> = {}) =>
  userEnv({
    NODE_ENV: 'production',
    STRAPI_TELEMETRY_DISABLED: 'true',
    STRAPI_DISABLE_UPDATE_NOTIFICATION: 'true',
    BROWSER: 'none',
    ...extra,
  });

/** Starts the app on `port` and resolves once GET /_health answers 204. */
export async function startStrapi(
  server: StrapiServer,
  appDir: string,
  port: number,
  emu: EmulatorHandle
): Promise<void> {
  const base = `http://127.0.0.1:${port}`;
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
  server.proc = proc;
  collectOutput(proc, (text) => (server.out += text));
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
    throw new Error(`${errorText(err)}\n${tail(server.out, 40)}`);
  });
  if (ready !== 'ready') throw new Error(`strapi start ${ready}\n${tail(server.out, 40)}`);
}

/** SIGTERM to the whole group; resolves once every process of it is gone. */
export async function stopStrapi(server: StrapiServer): Promise<void> {
  const proc = server.proc;
  if (!proc) return;
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
  server.proc = undefined;
}

export async function strapiLogChecks(server: StrapiServer): Promise<void> {
  await check('no error in the Strapi log', () => {
    // Node's deprecation notices end with "...will throw an error": they are shown, not counted (Strapi
    // 5.12's admin server makes Node warn DEP0170 for every Content Manager URL it serves, as `api::x.y`).
    const lines = server.out.split('\n');
    const deprecations = lines.filter((l) => /\[DEP\d+\] DeprecationWarning/.test(l));
    if (deprecations.length)
      log(
        `  note: Node deprecation warnings in the Strapi log:\n        ${[...new Set(deprecations)].slice(0, 5).join('\n        ')}`
      );
    const errors = lines.filter((l) => /\berror\b/i.test(l) && !deprecations.includes(l));
    assert(errors.length === 0, errors.slice(0, 10).join('\n'));
  });
}
