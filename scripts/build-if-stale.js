/**
 * `npm run build` unless dist/ is newer than everything it is built from: `npm test` (its pretest)
 * and the package test build the plugin, and .ci/run runs one after the other on one tree. A fresh
 * clone has no dist/ and builds; an edit, a checkout or a pull makes a source newer and builds.
 * LC_BUILD=always builds whatever the dates say.
 */
const { execSync } = require('node:child_process');
const path = require('node:path');
const { builtAt, newestMtime } = require('./mtimes');

const ROOT = path.resolve(__dirname, '..');
const BUILT = [
  'dist/server/index.js',
  'dist/server/index.mjs',
  'dist/admin/index.js',
  'dist/admin/index.mjs',
  'dist/shared/contracts/sync.d.ts',
];
const SOURCES = [
  'server/src',
  'server/tsconfig.json',
  'server/tsconfig.build.json',
  'admin/src',
  'admin/custom.d.ts',
  'admin/tsconfig.json',
  'admin/tsconfig.build.json',
  'shared',
  'package.json',
  'package-lock.json',
];

const built = builtAt(BUILT.map((f) => path.join(ROOT, f)));
const changed = Math.max(...SOURCES.map((p) => newestMtime(path.join(ROOT, p))));
if (process.env.LC_BUILD !== 'always' && built > changed) {
  console.log(
    '> the plugin in dist/ is newer than its sources: not built again (LC_BUILD=always builds)'
  );
} else {
  execSync('npm run build', { cwd: ROOT, stdio: 'inherit' });
}
