/**
 * The emulator for the benchmarks: bundled once to plain CommonJS with esbuild (so no tsx in
 * the measured processes), run in its own process and driven over IPC.
 *
 *   const emu = await startEmulatorProcess({ strict: true, requestLogSize: 100000 });
 *   emu.baseUrl, emu.clientId, emu.clientSecret
 *   await emu.call('stats') / call('configure', patch) / call('summary') ...
 *   await emu.stop();
 */
const { fork } = require('node:child_process');
const { mkdirSync } = require('node:fs');
const path = require('node:path');
const { builtAt, newestMtime } = require('../../scripts/mtimes');

const ROOT = path.resolve(__dirname, '..', '..');
const OUT = path.join(ROOT, 'bench', '.out');
const BUNDLE = path.join(OUT, 'emulator.cjs');

/** Bundles emulator/src to bench/.out/emulator.cjs when the source is newer than the bundle. */
function bundleEmulator() {
  mkdirSync(OUT, { recursive: true });
  if (builtAt([BUNDLE]) < newestMtime(path.join(ROOT, 'emulator', 'src'))) {
    require('esbuild').buildSync({
      entryPoints: [path.join(ROOT, 'emulator', 'src', 'index.ts')],
      bundle: true,
      platform: 'node',
      format: 'cjs',
      target: 'node20',
      outfile: BUNDLE,
      logLevel: 'warning',
    });
  }
  return BUNDLE;
}

/** Starts the emulator in a child process with `options` (EmulatorOptions, JSON only). */
function startEmulatorProcess(options = {}) {
  const bundle = bundleEmulator();
  const child = fork(path.join(__dirname, 'emulator-child.js'), [], {
    env: { ...process.env, EMULATOR_BUNDLE: bundle, EMULATOR_OPTIONS: JSON.stringify(options) },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    serialization: 'advanced',
  });
  let nextId = 1;
  const pending = new Map();
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => {
      reject(new Error(`emulator process exited (${code})`));
      for (const p of pending.values()) p.reject(new Error(`emulator process exited (${code})`));
    });
    child.on('message', (msg) => {
      if (msg?.event === 'ready') {
        const call = (cmd, args) =>
          new Promise((res, rej) => {
            const id = nextId++;
            pending.set(id, { resolve: res, reject: rej });
            child.send({ id, cmd, args });
          });
        resolve({
          ...msg.info,
          pid: child.pid,
          child,
          call,
          stop: async () => {
            await call('stop').catch(() => undefined);
            await new Promise((r) => (child.exitCode !== null ? r() : child.once('exit', r)));
          },
        });
        return;
      }
      const p = pending.get(msg?.id);
      if (!p) return;
      pending.delete(msg.id);
      if (msg.ok) p.resolve(msg.value);
      else p.reject(new Error(msg.error));
    });
  });
}

module.exports = { bundleEmulator, startEmulatorProcess };
