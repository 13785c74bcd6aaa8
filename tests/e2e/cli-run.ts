/**
 * Runs the built `location-content` command (dist/cli/index.js, what package.json `bin` points
 * at) as a child process in an app's folder, with the env a test app gets (tests/helpers/app-dir.ts).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { DriftGroup, DriftReport, RepairOutcome } from '../../shared/contracts/drift';
import type { ImportProgress } from '../../shared/contracts/import';
import type { LinkProposal } from '../../shared/contracts/inventory';
import type { DryRunPlan, ResyncProgress, SyncStatusReport } from '../../shared/contracts/sync';
import { appEnv, makeAppDir } from '../helpers/app-dir';

export const CLI = path.join(__dirname, '..', '..', 'dist', 'cli', 'index.js');

/** The `--json` document: what every command prints, then what the command adds (cli/commands.ts). */
export interface CliDocument {
  command: string;
  exitCode: number;
  ok: boolean;
  ms: number;
  error?: string;
}
/** What each command adds to its document, by the name the test reads it under. */
export interface CliParts {
  status: { status: SyncStatusReport };
  resync: { plan: DryRunPlan; job: ResyncProgress; status: SyncStatusReport };
  link: { proposal: LinkProposal; status: SyncStatusReport };
  check: { report: DriftReport; counts: Record<DriftGroup, number> };
  repair: { outcome: RepairOutcome };
  import: { job: ImportProgress };
}

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
  ms: number;
  /** stdout as the one JSON document it must be; `T`: what the command adds, e.g. CliParts['link'] */
  json<T = unknown>(): CliDocument & T;
}

/**
 * A copy of the playground as a JavaScript app: without the tsconfig.json that only stops Strapi's
 * upward lookup, which the CLI would take for a TypeScript app to compile at each run.
 */
export async function makeJavaScriptApp(): Promise<string> {
  const appDir = await makeAppDir();
  await fs.rm(path.join(appDir, 'tsconfig.json'));
  return appDir;
}

export function runCli(options: {
  appDir: string;
  args: string[];
  emulator?: { baseUrl: string; clientId: string; clientSecret: string };
  env?: Record<string, string>;
  timeoutMs?: number;
  /** on a terminal: run under script(1), which gives it a pty (stdout and stderr then both arrive on stdout) */
  tty?: boolean;
  /** the child, as soon as it runs (to send it a signal, say) */
  onSpawn?: (child: ChildProcess) => void;
}): Promise<CliRun> {
  const env: Record<string, string | undefined> = {
    ...process.env,
    ...appEnv({ appDir: options.appDir, emulator: options.emulator }),
    ...options.env,
  };
  // jest's own variables would make Strapi think it runs inside jest
  delete env.JEST_WORKER_ID;
  const started = Date.now();
  const quote = (a: string) => `'${a.replace(/'/g, `'\\''`)}'`;
  const [command, args] = options.tty
    ? [
        'script',
        ['-qec', [process.execPath, CLI, ...options.args].map(quote).join(' '), '/dev/null'],
      ]
    : [process.execPath, [CLI, ...options.args]];
  const child = spawn(command, args, {
    cwd: options.appDir,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  options.onSpawn?.(child);
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (d) => (stdout += d));
  child.stderr.setEncoding('utf8').on('data', (d) => (stderr += d));
  const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 240_000);
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      if (process.env.LC_CHILD_ECHO === '1')
        process.stderr.write(
          `[cli ${options.args.join(' ')}] exit ${code} after ${Date.now() - started} ms\n${stdout}${stderr}`
        );
      resolve({
        code,
        stdout,
        stderr,
        ms: Date.now() - started,
        json() {
          try {
            return JSON.parse(stdout);
          } catch {
            throw new Error(
              `stdout is not one JSON document (exit ${code}):\n${stdout}\n--- stderr:\n${stderr}`
            );
          }
        },
      });
    });
  });
}
