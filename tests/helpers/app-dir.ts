/**
 * The playground copies of every test and bench, in plain Node (CommonJS): jest's in-process apps
 * (strapi.ts), the fault tests' child processes and the benchmarks (Strapi does not boot under tsx:
 * plain-Node callers load this file through tests/helpers/node.js).
 *
 * The app folder is a copy of the playground inside the repository (so its requires resolve to
 * the root node_modules). Its config/plugins.js applies, in order:
 *  - LOCATION_CONTENT_CONFIG_PATCH: JSON `{ enabled?, config? }` deep-merged into the plugin entry
 *    (`{ "enabled": false }` = the plugin is not loaded at all);
 *  - globalThis.__LOCATION_CONTENT_TEST_PATCH__, as strapi.ts sets it (functions allowed).
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { PluginConfig } from '../../server/src/config';
import { createDatabase, databaseEnv } from './test-db';

export const ROOT = path.resolve(__dirname, '..', '..');
export const PLAYGROUND = path.join(ROOT, 'playground');

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
/** What the playground's config/plugins.js returns, as a test patches it before Strapi reads it. */
export type PlaygroundConfig = Record<string, unknown> & {
  'location-content': { enabled?: boolean; config: PluginConfig };
};

const PLUGINS_JS = `const base = require('./plugins.playground.js');

const isObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);
const merge = (into, patch) => {
  for (const [k, v] of Object.entries(patch)) {
    if (isObject(v) && isObject(into[k])) merge(into[k], v);
    else into[k] = v;
  }
  return into;
};

module.exports = (ctx) => {
  const config = base(ctx);
  const raw = process.env.LOCATION_CONTENT_CONFIG_PATCH;
  if (raw) merge(config['location-content'], JSON.parse(raw));
  const patch = globalThis.__LOCATION_CONTENT_TEST_PATCH__;
  return patch ? patch(config) : config;
};
`;

const skip = (src: string) => /[\\/](\.tmp|dist|build|\.strapi|database|node_modules)$/.test(src);

/** A fresh copy of the playground (`from`, default this tree's) under `base` (default tests/.artifacts/apps). */
export async function makeAppDir(
  base = path.join(ROOT, 'tests', '.artifacts', 'apps'),
  from = PLAYGROUND
): Promise<string> {
  await fs.mkdir(base, { recursive: true });
  const dir = await fs.mkdtemp(path.join(base, 'app-'));
  for (const part of ['config', 'src', 'types', 'package.json', 'tsconfig.json']) {
    await fs.cp(path.join(from, part), path.join(dir, part), {
      recursive: true,
      filter: (src) => !skip(src),
    });
  }
  // Without it Strapi's favicon middleware answers each browser's request for one with a logged 500.
  await fs.cp(path.join(from, 'favicon.png'), path.join(dir, 'favicon.png')).catch((err) => {
    if (err.code !== 'ENOENT') throw err;
  });
  await fs.mkdir(path.join(dir, 'public', 'uploads'), { recursive: true });
  await fs.mkdir(path.join(dir, '.tmp'), { recursive: true });
  await fs.rename(
    path.join(dir, 'config', 'plugins.js'),
    path.join(dir, 'config', 'plugins.playground.js')
  );
  await fs.writeFile(path.join(dir, 'config', 'plugins.js'), PLUGINS_JS);
  await createDatabase(dir);
  return dir;
}

/**
 * The environment of a Strapi process on `appDir` talking to `emulator` ({ baseUrl, clientId, clientSecret }).
 * `patch` becomes LOCATION_CONTENT_CONFIG_PATCH.
 */
export function appEnv({
  appDir,
  emulator,
  patch,
  env = {},
}: {
  appDir: string;
  emulator?: EmulatorRef;
  patch?: ConfigPatch;
  env?: Record<string, string>;
}): Record<string, string> {
  return {
    // LC_PLUGIN_PATH: another build of the plugin (benchmarks of one commit); default this tree.
    LOCATION_CONTENT_PLUGIN_PATH: process.env.LC_PLUGIN_PATH || ROOT,
    ...databaseEnv(appDir),
    ...(emulator
      ? {
          LOCATION_CONTENT_BASE_URL: emulator.baseUrl,
          LOCATION_CONTENT_CLIENT_ID: emulator.clientId,
          LOCATION_CONTENT_CLIENT_SECRET: emulator.clientSecret,
        }
      : {}),
    STRAPI_LOG_LEVEL: process.env.STRAPI_LOG_LEVEL || 'warn',
    STRAPI_TELEMETRY_DISABLED: 'true',
    HOST: '127.0.0.1',
    PORT: '0',
    NODE_ENV: 'test',
    ...(patch ? { LOCATION_CONTENT_CONFIG_PATCH: JSON.stringify(patch) } : {}),
    ...env,
  };
}

export const removeDir = (dir: string) => fs.rm(dir, { recursive: true, force: true });

/**
 * Adds collection types to an app folder made by makeAppDir, before Strapi boots on it: the
 * models a test needs beside the playground's (`attributes` as in a schema.json), each with the
 * core controller, service and router.
 */
export async function addContentTypes(
  appDir: string,
  types: Array<{ name: string; draftAndPublish?: boolean; attributes: Record<string, unknown> }>
) {
  for (const { name, draftAndPublish = false, attributes } of types) {
    const api = path.join(appDir, 'src', 'api', name);
    const uid = `api::${name}.${name}`;
    await fs.mkdir(path.join(api, 'content-types', name), { recursive: true });
    const schema = {
      kind: 'collectionType',
      collectionName: `${name}s`,
      info: { singularName: name, pluralName: `${name}s`, displayName: name },
      options: { draftAndPublish },
      attributes,
    };
    await fs.writeFile(
      path.join(api, 'content-types', name, 'schema.json'),
      JSON.stringify(schema, null, 2)
    );
    for (const [part, factory] of [
      ['controllers', 'createCoreController'],
      ['services', 'createCoreService'],
      ['routes', 'createCoreRouter'],
    ]) {
      await fs.mkdir(path.join(api, part), { recursive: true });
      await fs.writeFile(
        path.join(api, part, `${name}.js`),
        `const { factories } = require('@strapi/strapi');\n\nmodule.exports = factories.${factory}('${uid}');\n`
      );
    }
  }
}
