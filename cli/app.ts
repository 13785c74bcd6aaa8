import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Core } from '@strapi/strapi';
import { firstLine } from './output';
import { withoutSignalHandlers } from './signals';

/** The command could not run (no app, the app did not load, the remote did not answer): exit code 3. */
export class RunError extends Error {}

/** The key of server/src/run-mode.ts's CLI_RUN (the CLI is built apart from the plugin's bundle). */
const CLI_RUN = Symbol.for('strapi-plugin-location-content.cli-run');

export interface LoadOptions {
  appDir: string;
  /** TypeScript app: compile it first (as `strapi console` does), else use its outDir as built */
  compile: boolean;
  /** Strapi's info lines too (on stderr) */
  verbose: boolean;
}

/** What the CLI uses of `@strapi/strapi`, as the app has it installed. */
interface StrapiPackage {
  compileStrapi(options: {
    appDir: string;
    ignoreDiagnostics?: boolean;
  }): Promise<{ appDir: string; distDir?: string }>;
  createStrapi(options: {
    appDir: string;
    distDir: string;
    autoReload?: boolean;
    serveAdminPanel?: boolean;
  }): Core.Strapi;
}

/** `require` from the app's own node_modules, as the app's `strapi` command would load it. */
const requireFrom = (dir: string, id: string) => {
  let resolved: string;
  try {
    resolved = require.resolve(id, { paths: [dir] });
  } catch {
    throw new RunError(`${id} is not installed in ${dir}: run npm install there first`);
  }
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require(resolved);
};

/**
 * Where the app's JavaScript is: the app itself (JavaScript), or a TypeScript app's outDir,
 * compiled now (`compileStrapi()`, the way `strapi console` and `strapi ts:generate-types` do)
 * or as last built (`--no-compile`, the way `strapi start` does).
 */
async function distDirOf(
  appDir: string,
  strapiPkg: StrapiPackage,
  compile: boolean
): Promise<string> {
  if (!existsSync(path.join(appDir, 'tsconfig.json'))) return appDir;
  if (compile) {
    // compileStrapi() ends the process on a failed compile: here it becomes one line and code 3.
    const exit = process.exit;
    process.exit = ((code?: number) => {
      throw new RunError(`the TypeScript app could not be compiled (exit code ${code ?? 0})`);
    }) as typeof process.exit;
    try {
      // Type errors do not stop the app from loading (as `strapi ts:generate-types` compiles it).
      const { distDir } = await strapiPkg.compileStrapi({ appDir, ignoreDiagnostics: true });
      return distDir ?? appDir;
    } catch (err) {
      if (err instanceof RunError) throw err;
      throw new RunError(`the TypeScript app could not be compiled: ${firstLine(err)}`);
    } finally {
      process.exit = exit;
    }
  }
  const core = path.dirname(require.resolve('@strapi/core/package.json', { paths: [appDir] }));
  const tsUtils = requireFrom(core, '@strapi/typescript-utils');
  const outDir: string | undefined = await tsUtils.resolveOutDir(appDir);
  if (!outDir) return appDir;
  if (!existsSync(outDir))
    throw new RunError(
      `${outDir} is not built: run your app's build first, or leave out --no-compile`
    );
  return outDir;
}

/** Strapi's log on stderr, and from warn up unless verbose: stdout is the command's. */
function quietLog(strapi: Core.Strapi, verbose: boolean) {
  // winston's logger: its levels and transports are not in Strapi's type of it
  const log = strapi.log as unknown as {
    level: string;
    levels?: Record<string, number>;
    transports?: Array<{ level?: string; stderrLevels?: Set<string> }>;
  };
  const levels = Object.keys(log.levels ?? {});
  const rank = (level: string | undefined) => (level ? (log.levels?.[level] ?? 0) : Infinity);
  for (const transport of log.transports ?? []) {
    if (!verbose && rank(transport.level ?? log.level) > rank('warn')) transport.level = 'warn';
    // winston's Console transport writes these levels to stderr
    if ('stderrLevels' in transport) transport.stderrLevels = new Set(levels);
  }
  if (!verbose && rank(log.level) > rank('warn')) log.level = 'warn';
}

/** Loads (registers and bootstraps, without listening) the Strapi app of `appDir`. */
export async function loadApp(options: LoadOptions): Promise<Core.Strapi> {
  const { appDir } = options;
  let pkg: {
    dependencies?: Record<string, string>;
    devDependencies?: Record<string, string>;
  } | null;
  try {
    pkg = JSON.parse(readFileSync(path.join(appDir, 'package.json'), 'utf8'));
  } catch {
    pkg = null;
  }
  if (!pkg?.dependencies?.['@strapi/strapi'] && !pkg?.devDependencies?.['@strapi/strapi'])
    throw new RunError(
      `${appDir} is not a Strapi app (no package.json depending on @strapi/strapi): run location-content in your app's folder`
    );
  const strapiPkg: StrapiPackage = requireFrom(appDir, '@strapi/strapi');
  const distDir = await distDirOf(appDir, strapiPkg, options.compile);
  (globalThis as Record<symbol, unknown>)[CLI_RUN] = {};
  let strapi: Core.Strapi;
  try {
    strapi = withoutSignalHandlers(() =>
      strapiPkg.createStrapi({
        appDir,
        distDir,
        autoReload: false,
        serveAdminPanel: false,
      })
    );
  } catch (err) {
    throw new RunError(`the app could not be loaded: ${firstLine(err)}`);
  }
  quietLog(strapi, options.verbose);
  // The app's own cron tasks belong to its servers: they must not run again in this process.
  strapi.config.set('server.cron.enabled', false);
  try {
    await strapi.load();
  } catch (err) {
    await strapi.destroy().catch(() => undefined);
    throw new RunError(`the app could not be loaded: ${firstLine(err)}`);
  }
  if (!strapi.plugin('location-content')) {
    await strapi.destroy().catch(() => undefined);
    throw new RunError(
      'the app does not enable strapi-plugin-location-content (config/plugins): nothing to run'
    );
  }
  return strapi;
}
