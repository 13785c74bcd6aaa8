/**
 * What the package test runs against: the package.json under test, the Strapi release asked for
 * (`--strapi` or LC_PACKAGE_STRAPI) and the LC_PACKAGE_* switches.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';

/** The fields of our package.json the checks read. */
export interface PackageManifest {
  name: string;
  version: string;
  main?: string;
  module?: string;
  types?: string;
  exports?: unknown;
  dependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  engines?: { node?: string };
  strapi?: { kind?: string; name?: string; displayName?: string };
}

export const ROOT = path.resolve(__dirname, '..', '..');
export const PLUGIN_ID = 'location-content';
export const PKG: PackageManifest = JSON.parse(
  readFileSync(path.join(ROOT, 'package.json'), 'utf8')
);

const DEFAULT_STRAPI = '5.54.0';

/**
 * `--strapi <version>`, `--strapi=<version>` or LC_PACKAGE_STRAPI: one exact release, never a range;
 * `min` is the lowest release our peer range for @strapi/strapi admits, so CI cannot drift from it.
 */
function strapiVersionWanted(argv: string[], env: NodeJS.ProcessEnv): string {
  let wanted = env.LC_PACKAGE_STRAPI || DEFAULT_STRAPI;
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--strapi') wanted = argv[++i] ?? '';
    else if (argv[i]!.startsWith('--strapi=')) wanted = argv[i]!.slice('--strapi='.length);
  }
  if (wanted === 'min')
    wanted = require('semver').minVersion(PKG.peerDependencies?.['@strapi/strapi']).version;
  if (!/^5\.\d+\.\d+$/.test(wanted)) {
    process.stderr.write(
      `--strapi / LC_PACKAGE_STRAPI must be one Strapi 5 release such as 5.54.0 (or min), not "${wanted}"\n`
    );
    process.exit(2);
  }
  return wanted;
}

export const STRAPI_VERSION = strapiVersionWanted(process.argv.slice(2), process.env);

/** What a user puts next to the plugin: the versions this package is tested with. */
export const APP_DEPENDENCIES: Record<string, string> = {
  '@strapi/strapi': STRAPI_VERSION,
  'better-sqlite3': '12.4.1',
  react: '18.3.1',
  'react-dom': '18.3.1',
  'react-router-dom': '6.30.3',
  'styled-components': '6.1.19',
};

/** Packages the admin shares with Strapi: a second copy inside the plugin breaks React contexts. */
export const MUST_BE_PEERS = [
  '@strapi/strapi',
  '@strapi/design-system',
  '@strapi/icons',
  'react',
  'react-dom',
  'react-router-dom',
  'styled-components',
  'react-intl',
];

/** Strapi packages the plugin uses at run time: a second copy breaks `instanceof` (Strapi's error classes) or React contexts. */
export const MUST_BE_STRAPIS_COPY = [...MUST_BE_PEERS, '@strapi/utils'];

export const KEEP = process.env.LC_PACKAGE_KEEP === '1';
export const VERBOSE = process.env.LC_PACKAGE_VERBOSE === '1';
export const STATIC_ONLY = process.env.LC_PACKAGE_STATIC_ONLY === '1';
export const ADMIN_EMAIL = 'package-test@example.com';
export const PASSWORD = 'Str0ngPassw0rd!';
