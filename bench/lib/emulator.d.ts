import type { ChildProcess } from 'node:child_process';

export interface EmulatorProcess {
  baseUrl: string;
  clientId: string;
  clientSecret: string;
  pid: number;
  child: ChildProcess;
  /** A command of bench/lib/emulator-child.js ('issueToken', 'summary', 'requests', 'reset'…). */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  call(cmd: string, args?: unknown): Promise<any>;
  stop(): Promise<void>;
}
/** Bundles emulator/src to bench/.out/emulator.cjs when the source is newer than the bundle. */
export function bundleEmulator(): string;
/** Starts the emulator in a child process with `options` (EmulatorOptions, JSON only). */
export function startEmulatorProcess(options?: Record<string, unknown>): Promise<EmulatorProcess>;
