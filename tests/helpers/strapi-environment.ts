/**
 * The jest environment of the integration projects: jest's node environment, plus Strapi loaded
 * once per jest worker instead of once per test file. Jest evaluates every module a file requires
 * again in that file's sandbox: Strapi and its ~2,000 modules cost a second of CPU per file
 * (more under load), a third of a boot. Here startApp (strapi.ts) takes Strapi from the worker's own
 * Node require, whose cache outlives the file; what is not under node_modules (the plugin's build,
 * the app's config and sources) is evaluated again at each boot, as a new process would.
 *
 * Strapi then lives in the worker's realm, not the sandbox's: it reads the worker's process.env
 * (the sandbox's process.env is made the same object, restored when the file ends) and the
 * worker's globalThis (`strapiGlobal()` in strapi.ts), and its destroy() removes every listener
 * of the worker's process, jest's IPC included (`processListeners`). A Date or an Error a test
 * hands Strapi must pass its `instanceof` checks (knex binds a Date, the plugin reads an error's
 * message): the sandbox gets the worker's constructors, as jest's own environment does for Buffer.
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import NodeEnvironment from 'jest-environment-node';
import type { EnvironmentContext, JestEnvironmentConfig } from '@jest/environment';

const ROOT = path.resolve(__dirname, '..', '..');

/** What a test file's sandbox reaches of the worker as `globalThis.__LC_HOST__`. */
export interface StrapiHost {
  require: NodeJS.Require;
  global: typeof globalThis;
  /** forgets the modules outside node_modules, so that the next boot evaluates them anew */
  forgetAppModules(): void;
  /**
   * The worker's process listeners now; calling the answer puts back exactly those, as before a
   * boot: Strapi's destroy() removes them all, jest's IPC included, and keeps its own SIGTERM and
   * SIGINT (added by createStrapi) if restored with them, one pair and one dead Strapi per boot.
   */
  processListeners(): () => void;
}

const hostRequire = createRequire(path.join(ROOT, 'package.json'));
const LIMITER_STORE = path.join('koa2-ratelimit', 'src', 'MemoryStore.js');

const host: StrapiHost = {
  require: hostRequire,
  global: globalThis,
  forgetAppModules() {
    for (const file of Object.keys(hostRequire.cache))
      if (!file.includes(`${path.sep}node_modules${path.sep}`)) delete hostRequire.cache[file];
    // The admin login limiter (koa2-ratelimit, 5 a 5 minutes) counts in module memory: a new process
    // starts from none, and so does each file here, whatever logged in before it in this worker.
    const limiter = Object.keys(hostRequire.cache).find((file) => file.endsWith(LIMITER_STORE));
    if (limiter) (hostRequire.cache[limiter]!.exports as { cleanAll(): void }).cleanAll();
  },
  processListeners() {
    const before = new Map(process.eventNames().map((name) => [name, process.rawListeners(name)]));
    return () => {
      for (const name of new Set([...before.keys(), ...process.eventNames()])) {
        const kept = before.get(name) ?? [];
        for (const listener of process.rawListeners(name))
          if (!kept.includes(listener))
            process.removeListener(name, listener as (...args: unknown[]) => void);
        const now = process.rawListeners(name);
        for (const listener of kept)
          if (!now.includes(listener)) process.on(name, listener as (...args: unknown[]) => void);
      }
    };
  },
};

const SHARED = [
  'Date',
  'Error',
  'TypeError',
  'RangeError',
  'SyntaxError',
  'ReferenceError',
  'EvalError',
  'URIError',
  'AggregateError',
] as const;

export default class StrapiEnvironment extends NodeEnvironment {
  private readonly env = { ...process.env };

  constructor(config: JestEnvironmentConfig, context: EnvironmentContext) {
    super(config, context);
    (this.global.process as NodeJS.Process).env = process.env;
    (this.global as { __LC_HOST__?: StrapiHost }).__LC_HOST__ = host;
    for (const name of SHARED) (this.global as Record<string, unknown>)[name] = globalThis[name];
  }

  /** A failed test's name, for the browser tests' report of the page it left (e2e/screenshots.ts). */
  handleTestEvent(event: { name: string; test?: { name: string } }) {
    if (event.name === 'test_fn_failure')
      (this.global as { __LC_FAILED__?: string }).__LC_FAILED__ = event.test?.name;
  }

  async teardown() {
    for (const name of Object.keys(process.env)) if (!(name in this.env)) delete process.env[name];
    Object.assign(process.env, this.env);
    host.forgetAppModules();
    await super.teardown();
  }
}
