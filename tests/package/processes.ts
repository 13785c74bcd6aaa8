/**
 * Child processes run as a user would (no trace of this repository in their environment), each in
 * its own process group so a stop reaches what npx started; plus ports and polling.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import { ROOT, VERBOSE } from './config';
import { errorText, log, secs } from './report';

/** The environment of a user's shell: nothing of `npm run` in this repository, no repo bin on PATH. */
export function userEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (/^npm_/i.test(key) || key === 'INIT_CWD' || key === 'NODE_PATH' || /^TSX/i.test(key))
      continue;
    if (/^(LOCATION_CONTENT_|DATABASE_|STRAPI_|EMULATOR_)/.test(key)) continue;
    if (key === 'NODE_OPTIONS' && /tsx|ts-node|swc/.test(value ?? '')) continue;
    env[key] = value;
  }
  env.PATH = (process.env.PATH ?? '')
    .split(path.delimiter)
    .filter(
      (dir) => dir && !path.resolve(dir).startsWith(ROOT + path.sep) && path.resolve(dir) !== ROOT
    )
    .join(path.delimiter);
  return { ...env, ...extra };
}

/** Every child still running, so a failure or a signal can stop them all. */
export const children = new Set<ChildProcess>();

interface RunOptions {
  cwd: string;
  env?: NodeJS.ProcessEnv;
  timeoutMs?: number;
}

/** Keeps a child's output and, with LC_PACKAGE_VERBOSE=1, streams it. */
export function collectOutput(child: ChildProcess, take: (text: string) => void): void {
  const onData = (chunk: Buffer) => {
    take(chunk.toString());
    if (VERBOSE) process.stdout.write(chunk);
  };
  child.stdout!.on('data', onData);
  child.stderr!.on('data', onData);
}

/** Runs a command to its end; its output is kept and shown (tail) when it fails. */
export function run(cmd: string, args: string[], opts: RunOptions): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, {
      cwd: opts.cwd,
      env: opts.env ?? userEnv(),
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    children.add(child);
    let out = '';
    collectOutput(child, (text) => (out += text));
    const t0 = Date.now();
    const heartbeat = setInterval(
      () => log(`  ... still running (${secs(Date.now() - t0)}): ${cmd} ${args.join(' ')}`),
      30_000
    );
    const timer = opts.timeoutMs
      ? setTimeout(() => {
          out += `\n[killed after ${secs(opts.timeoutMs!)}]`;
          killGroup(child);
        }, opts.timeoutMs)
      : undefined;
    child.on('error', (err) => {
      clearInterval(heartbeat);
      if (timer) clearTimeout(timer);
      children.delete(child);
      reject(err);
    });
    child.on('close', (code, signal) => {
      clearInterval(heartbeat);
      if (timer) clearTimeout(timer);
      children.delete(child);
      if (code === 0) resolve(out);
      else
        reject(
          new Error(
            `${cmd} ${args.join(' ')} exited with ${code ?? signal} in ${opts.cwd}\n${tail(out, 40)}`
          )
        );
    });
  });
}

export const tail = (text: string, lines: number) =>
  text.trimEnd().split('\n').slice(-lines).join('\n');

export function killGroup(child: ChildProcess, signal: NodeJS.Signals = 'SIGTERM') {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    try {
      child.kill(signal);
    } catch {
      /* already gone */
    }
  }
}

export function groupAlive(child: ChildProcess): boolean {
  if (child.pid === undefined) return false;
  try {
    process.kill(-child.pid, 0);
    return true;
  } catch {
    return false;
  }
}

export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function waitFor<T>(
  what: string,
  fn: () => Promise<T | undefined> | T | undefined,
  timeoutMs: number,
  everyMs = 250
): Promise<T> {
  const until = Date.now() + timeoutMs;
  let last: unknown;
  while (Date.now() < until) {
    try {
      const value = await fn();
      if (value !== undefined && value !== null && (value as unknown) !== false) return value;
    } catch (err) {
      last = err;
    }
    await sleep(everyMs);
  }
  throw new Error(
    `timed out after ${secs(timeoutMs)} waiting for ${what}${last ? `: ${errorText(last)}` : ''}`
  );
}
