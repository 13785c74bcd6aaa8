export const ROOT: string;
export const PLAYGROUND: string;
/** A fresh copy of the playground (`from`, default this tree's) under `base` (default tests/.artifacts/apps). */
export function makeAppDir(base?: string, from?: string): Promise<string>;
export interface EmulatorRef {
  baseUrl: string;
  clientId: string;
  clientSecret: string;
}
/** `{ enabled?, config? }`, deep-merged into the plugin's entry of config/plugins.js */
export interface ConfigPatch {
  enabled?: boolean;
  config?: Record<string, unknown>;
}
export function appEnv(options: {
  appDir: string;
  emulator?: EmulatorRef;
  patch?: ConfigPatch;
  env?: Record<string, string>;
}): Record<string, string>;
export function removeDir(dir: string): Promise<void>;
