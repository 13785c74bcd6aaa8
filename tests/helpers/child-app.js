/**
 * Parent side of tests/helpers/strapi-child.js: a real Strapi in a child process, driven over IPC.
 *
 *   const app = await spawnApp({ appDir, emulator, patch: { config: { syncEnabled: false } } });
 *   await app.call('seedPlaces', { count: 2000 });
 *   await app.run(async (strapi, args) => strapi.documents(...).findMany(...), args);
 *   app.kill('SIGKILL');  // or: await app.stop();
 *
 * stdout/stderr of the child are kept in `app.output` (and echoed when LC_CHILD_ECHO=1).
 */
const { fork } = require('node:child_process');
const path = require('node:path');
const { appEnv } = require('./app-dir');

const CHILD = path.join(__dirname, 'strapi-child.js');

/**
 * @param {{ appDir: string, emulator?: {baseUrl:string, clientId:string, clientSecret:string}, patch?: object,
 *           env?: Record<string,string>, http?: boolean, forwardLogs?: boolean, bootTimeoutMs?: number,
 *           execArgv?: string[] }} options
 */
function spawnApp(options) {
  const env = {
    ...process.env,
    ...appEnv(options),
    APP_DIR: options.appDir,
    LC_CHILD_HTTP: options.http ? '1' : '0',
    LC_CHILD_FORWARD_LOGS: options.forwardLogs ? '1' : '0',
  };
  // jest's own variables would make Strapi think it runs inside jest.
  delete env.JEST_WORKER_ID;
  const child = fork(CHILD, [], {
    cwd: options.appDir,
    env,
    execArgv: options.execArgv ?? [],
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    serialization: 'advanced',
  });
  const output = [];
  const logs = [];
  const echo = process.env.LC_CHILD_ECHO === '1';
  for (const stream of [child.stdout, child.stderr]) {
    stream.setEncoding('utf8');
    stream.on('data', (chunk) => {
      output.push(chunk);
      if (echo) process.stderr.write(`[strapi ${child.pid}] ${chunk}`);
    });
  }
  let nextId = 1;
  const pending = new Map();
  let exited = null;
  let onReady;
  const ready = new Promise((resolve, reject) => {
    onReady = { resolve, reject };
  });
  const bootTimer = setTimeout(
    () =>
      onReady.reject(
        new Error(
          `Strapi child did not boot in ${options.bootTimeoutMs ?? 90_000} ms:\n${output.join('')}`
        )
      ),
    options.bootTimeoutMs ?? 90_000
  );
  bootTimer.unref?.();

  child.on('message', (msg) => {
    if (msg?.event === 'ready') {
      clearTimeout(bootTimer);
      onReady.resolve(msg);
      return;
    }
    if (msg?.event === 'log') {
      logs.push(msg.line);
      return;
    }
    const p = pending.get(msg?.id);
    if (!p) return;
    pending.delete(msg.id);
    if (msg.ok) p.resolve(msg.value);
    else {
      const err = new Error(
        `[child ${child.pid}] ${msg.error.message}${process.env.LC_CHILD_STACKS ? `\n${msg.error.stack}` : ''}`
      );
      err.childStack = msg.error.stack;
      p.reject(err);
    }
  });
  child.on('exit', (code, signal) => {
    exited = { code, signal };
    clearTimeout(bootTimer);
    onReady.reject(
      new Error(
        `Strapi child exited (code ${code}, signal ${signal}) before it was ready:\n${output.join('')}`
      )
    );
    for (const p of pending.values())
      p.reject(
        new Error(
          `Strapi child exited (code ${code}, signal ${signal}) during a call:\n${output.join('').slice(-4000)}`
        )
      );
    pending.clear();
  });
  const exitPromise = new Promise((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal }))
  );

  const call = (cmd, args, timeoutMs = 300_000) => {
    if (exited)
      return Promise.reject(new Error(`Strapi child already exited (${JSON.stringify(exited)})`));
    const id = nextId++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        pending.delete(id);
        reject(new Error(`child call ${cmd} timed out after ${timeoutMs} ms`));
      }, timeoutMs);
      timer.unref?.();
      pending.set(id, {
        resolve: (v) => {
          clearTimeout(timer);
          resolve(v);
        },
        reject: (e) => {
          clearTimeout(timer);
          reject(e);
        },
      });
      child.send({ id, cmd, args });
    });
  };

  const app = {
    child,
    pid: child.pid,
    output,
    logs,
    /** resolves with { pid, url } once Strapi is loaded */
    ready: () => ready,
    call,
    /** runs `fn` (its source) inside the child: `async (strapi, args, helpers) => value` */
    run: (fn, args, timeoutMs) => call('run', { source: fn.toString(), args }, timeoutMs),
    exited: () => exitPromise,
    kill: (signal = 'SIGKILL') => {
      if (!exited) child.kill(signal);
      return exitPromise;
    },
    /** destroys Strapi cleanly; kills it if it does not stop in time */
    stop: async (timeoutMs = 30_000) => {
      if (exited) return exitPromise;
      await call('stop', undefined, timeoutMs).catch(() => undefined);
      const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
      timer.unref?.();
      const result = await exitPromise;
      clearTimeout(timer);
      return result;
    },
  };
  return app;
}

/** spawnApp, then wait until it is loaded. */
async function startChildApp(options) {
  const app = spawnApp(options);
  const info = await app.ready();
  app.url = info.url;
  return app;
}

module.exports = { spawnApp, startChildApp };
