/**
 * Parent side of tests/helpers/strapi-child.ts: a real Strapi in a child process, driven over IPC.
 *
 *   const app = await spawnApp({ appDir, emulator, patch: { config: { syncEnabled: false } } });
 *   await app.call('seedPlaces', { count: 2000 });
 *   await app.run(async (strapi, args) => strapi.documents(...).findMany(...), args);
 *   app.kill('SIGKILL');  // or: await app.stop();
 *
 * stdout/stderr of the child are kept in `app.output` (and echoed when LC_CHILD_ECHO=1).
 */
import { fork, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import type { Core } from '@strapi/strapi';
import type { SyncService } from '../../shared/contracts/sync';
import { appEnv, type ConfigPatch, type EmulatorRef } from './app-dir';

/** strapi-child.ts, compiled by tsx (node.js) while Strapi is loaded by plain Node. */
const CHILD = [path.join(__dirname, 'node.js'), 'strapi-child'] as const;

export interface ChildAppOptions {
  appDir: string;
  emulator?: EmulatorRef;
  patch?: ConfigPatch;
  env?: Record<string, string>;
  /** listen on 127.0.0.1 (a free port): `url` is set once ready */
  http?: boolean;
  /** forward every Strapi log line into `logs` */
  forwardLogs?: boolean;
  bootTimeoutMs?: number;
  execArgv?: string[];
}

/** What strapi-child.ts hands a `run` function beside Strapi. */
export interface ChildHelpers {
  sync(): SyncService;
  states(where?: Record<string, unknown>): Promise<ChildState[]>;
  outboxDepth(): Promise<number>;
  seedPlaces(strapi: Core.Strapi, args: unknown): Promise<unknown>;
  require: NodeJS.Require;
}
/** A sync state as the child's `states` command reads it from the table. */
export interface ChildState {
  contentType: string;
  documentId: string;
  locale: string;
  status: string;
  remoteId: number | null;
  lastError: string | null;
  attempts: number;
}

type Exit = { code: number | null; signal: NodeJS.Signals | null };

export interface ChildApp {
  child: ChildProcess;
  pid: number;
  url?: string | null;
  /** raw stdout + stderr chunks */
  output: string[];
  /** Strapi log lines (with forwardLogs) */
  logs: string[];
  ready(): Promise<{ pid: number; url: string | null }>;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- what a command answers is the caller's to name
  call<T = any>(cmd: string, args?: unknown, timeoutMs?: number): Promise<T>;
  /** runs `fn` by its source inside the child: it must not use variables from outside */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- what `fn` answers is the caller's to name
  run<T = any, A = any>(
    fn: (strapi: Core.Strapi, args: A, helpers: ChildHelpers) => Promise<T> | T,
    args?: A,
    timeoutMs?: number
  ): Promise<T>;
  exited(): Promise<Exit>;
  kill(signal?: NodeJS.Signals): Promise<Exit>;
  stop(timeoutMs?: number): Promise<Exit>;
}

type Pending = { resolve: (v: unknown) => void; reject: (e: Error) => void };
type Message =
  | { event: 'ready'; pid: number; url: string | null }
  | { event: 'log'; line: string }
  | { event?: undefined; id: number; ok: true; value: unknown }
  | { event?: undefined; id: number; ok: false; error: { message: string; stack?: string } };

export function spawnApp(options: ChildAppOptions): ChildApp {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    ...appEnv(options),
    APP_DIR: options.appDir,
    LC_CHILD_HTTP: options.http ? '1' : '0',
    LC_CHILD_FORWARD_LOGS: options.forwardLogs ? '1' : '0',
  };
  // jest's own variables would make Strapi think it runs inside jest.
  delete env.JEST_WORKER_ID;
  const child = fork(CHILD[0], [CHILD[1]], {
    cwd: options.appDir,
    env,
    execArgv: options.execArgv ?? [],
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    serialization: 'advanced',
  });
  const output: string[] = [];
  const logs: string[] = [];
  const echo = process.env.LC_CHILD_ECHO === '1';
  for (const stream of [child.stdout!, child.stderr!]) {
    stream.setEncoding('utf8');
    stream.on('data', (chunk) => {
      output.push(chunk);
      if (echo) process.stderr.write(`[strapi ${child.pid}] ${chunk}`);
    });
  }
  let nextId = 1;
  const pending = new Map<number, Pending>();
  let exited: Exit | null = null;
  let onReady!: {
    resolve: (v: { pid: number; url: string | null }) => void;
    reject: (e: Error) => void;
  };
  const ready = new Promise<{ pid: number; url: string | null }>((resolve, reject) => {
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

  child.on('message', (msg: Message) => {
    if (msg?.event === 'ready') {
      clearTimeout(bootTimer);
      onReady.resolve(msg);
      return;
    }
    if (msg?.event === 'log') {
      logs.push(msg.line);
      return;
    }
    if (!msg || msg.event) return;
    const p = pending.get(msg.id);
    if (!p) return;
    pending.delete(msg.id);
    if (msg.ok) p.resolve(msg.value);
    else {
      const err: Error & { childStack?: string } = new Error(
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
  const exitPromise = new Promise<Exit>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal }))
  );

  const call = <T>(cmd: string, args?: unknown, timeoutMs = 300_000): Promise<T> => {
    if (exited)
      return Promise.reject(new Error(`Strapi child already exited (${JSON.stringify(exited)})`));
    const id = nextId++;
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => {
        pending.delete(id);
        reject(new Error(`child call ${cmd} timed out after ${timeoutMs} ms`));
      }, timeoutMs);
      timer.unref?.();
      pending.set(id, {
        resolve: (v) => {
          clearTimeout(timer);
          resolve(v as T);
        },
        reject: (e) => {
          clearTimeout(timer);
          reject(e);
        },
      });
      child.send({ id, cmd, args });
    });
  };

  const app: ChildApp = {
    child,
    pid: child.pid!,
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
export async function startChildApp(options: ChildAppOptions): Promise<ChildApp> {
  const app = spawnApp(options);
  const info = await app.ready();
  app.url = info.url;
  return app;
}
