import type { ChildProcess } from 'node:child_process';
import type { ConfigPatch, EmulatorRef } from './app-dir';

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

export interface ChildApp {
  child: ChildProcess;
  pid: number;
  url?: string | null;
  /** raw stdout + stderr chunks */
  output: string[];
  /** Strapi log lines (with forwardLogs) */
  logs: string[];
  ready(): Promise<{ pid: number; url: string | null }>;
  call<T = any>(cmd: string, args?: unknown, timeoutMs?: number): Promise<T>;
  /** runs `fn` by its source inside the child: it must not use variables from outside */
  run<T = any, A = any>(
    fn: (strapi: any, args: A, helpers: any) => Promise<T> | T,
    args?: A,
    timeoutMs?: number
  ): Promise<T>;
  exited(): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  kill(signal?: NodeJS.Signals): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  stop(timeoutMs?: number): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

export function spawnApp(options: ChildAppOptions): ChildApp;
export function startChildApp(options: ChildAppOptions): Promise<ChildApp>;
