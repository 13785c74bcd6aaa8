/**
 * The tarball `npm pack` makes, checked before any install: what it holds, what its files import and
 * what package.json declares for them.
 */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { builtinModules } from 'node:module';
import path from 'node:path';
import { MUST_BE_PEERS, PKG, PLUGIN_ID, ROOT, type PackageManifest } from './config';
import { run } from './processes';
import { assert, check } from './report';

export interface PackResult {
  tarball: string;
  files: string[];
}

export async function pack(dest: string): Promise<PackResult> {
  const out = await run('npm', ['pack', '--json', '--pack-destination', dest], {
    cwd: ROOT,
    env: process.env,
  });
  const json = JSON.parse(out.slice(out.indexOf('[')));
  const info = json[0];
  return {
    tarball: path.join(dest, info.filename),
    files: info.files.map((f: { path: string }) => f.path).sort(),
  };
}

/** Every file the package.json points at (exports, main, types), without the dev-only "source". */
function referencedFiles(pkg: PackageManifest): string[] {
  const found = new Set<string>();
  const walk = (value: unknown, key?: string) => {
    if (key === 'source') return;
    if (typeof value === 'string' && value.startsWith('./')) found.add(path.posix.normalize(value));
    else if (value && typeof value === 'object')
      for (const [k, v] of Object.entries(value)) walk(v, k);
  };
  walk(pkg.exports);
  for (const key of ['main', 'module', 'types'] as const) {
    const file = pkg[key];
    if (typeof file === 'string') found.add(path.posix.normalize(file));
  }
  return [...found];
}

/** Bare specifiers (`react`, `@strapi/strapi/admin`) a built file requires or imports. */
function bareImports(code: string): string[] {
  const specs = new Set<string>();
  const re = /(?:require\(\s*|\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)["']([^"'./\s][^"'\s]*)["']/g;
  for (let m = re.exec(code); m; m = re.exec(code)) specs.add(m[1]!);
  return [...specs];
}

/** Relative specifiers a built file requires or imports. */
function relativeImports(code: string): string[] {
  const specs = new Set<string>();
  const re = /(?:require\(\s*|\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)["'](\.\.?\/[^"']*)["']/g;
  for (let m = re.exec(code); m; m = re.exec(code)) specs.add(m[1]!);
  return [...specs];
}

const packageName = (spec: string) =>
  spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0]!;
const isBuiltin = (spec: string) =>
  spec.startsWith('node:') || builtinModules.includes(packageName(spec));

/** Non-type imports of the plugin's own sources (what the bundler sees). */
function sourceImports(dir: string): Map<string, string> {
  const found = new Map<string, string>();
  const visit = (d: string) => {
    for (const name of readdirSync(d)) {
      const file = path.join(d, name);
      if (statSync(file).isDirectory()) visit(file);
      else if (/\.(t|j)sx?$/.test(name) && !/\.d\.ts$/.test(name)) {
        const code = readFileSync(file, 'utf8');
        const re = /^\s*import\s+(?!type\s)(?:[^'"]*?\sfrom\s+)?["']([^"'./][^"']*)["']/gm;
        for (let m = re.exec(code); m; m = re.exec(code))
          found.set(m[1]!, path.relative(ROOT, file));
        const dyn = /(?:require|import)\(\s*["']([^"'./][^"']*)["']\s*\)/g;
        for (let m = dyn.exec(code); m; m = dyn.exec(code))
          found.set(m[1]!, path.relative(ROOT, file));
      }
    }
  };
  visit(dir);
  return found;
}

/** Dependencies and peers: what the app installs next to the plugin. */
const declaredPackages = () =>
  new Set([...Object.keys(PKG.dependencies ?? {}), ...Object.keys(PKG.peerDependencies ?? {})]);

/** The checks on the packed files; each is recorded and the run goes on. */
export async function tarballChecks(packed: PackResult): Promise<void> {
  const files = new Set(packed.files);
  await check(
    'tarball has package.json, README.md, LICENSE, CHANGELOG.md, strapi-server.js, strapi-admin.js',
    () => {
      const missing = [
        'package.json',
        'README.md',
        'LICENSE',
        'CHANGELOG.md',
        'strapi-server.js',
        'strapi-admin.js',
      ].filter((f) => !files.has(f));
      assert(missing.length === 0, `missing: ${missing.join(', ')}`);
    }
  );
  await check('tarball has every file package.json "exports" points at', () => {
    const missing = referencedFiles(PKG).filter((f) => !files.has(f.replace(/^\.\//, '')));
    assert(missing.length === 0, `missing: ${missing.join(', ')}`);
  });
  // Type declarations too: a .d.ts pointing outside dist (shared/contracts) leaves TypeScript users with `any`.
  await check(
    'every relative require/import inside the tarball (code and .d.ts) resolves inside it',
    () => {
      const broken: string[] = [];
      for (const file of packed.files.filter((f) => /\.(c|m)?js$|\.d\.ts$/.test(f))) {
        const code = readFileSync(path.join(ROOT, file), 'utf8');
        for (const spec of relativeImports(code)) {
          const target = path.posix.normalize(path.posix.join(path.posix.dirname(file), spec));
          const candidates = [target, `${target}.js`, `${target}.mjs`, `${target}/index.js`];
          if (file.endsWith('.d.ts')) candidates.push(`${target}.d.ts`, `${target}/index.d.ts`);
          if (!candidates.some((c) => files.has(c))) broken.push(`${file} -> ${spec}`);
        }
      }
      assert(broken.length === 0, `unresolved: ${broken.join(', ')}`);
    }
  );
  await check(
    'tarball holds nothing but the build (the CLI included), the entry files and the docs (no sources, tests, emulator, playground, maps)',
    () => {
      const allowed =
        /^(dist\/(admin|server)\/.+\.(js|mjs|d\.ts)|dist\/cli\/[^/]+\.js|dist\/shared\/contracts\/.+\.d\.ts|package\.json|README\.md|LICENSE|CHANGELOG\.md|strapi-server\.js|strapi-admin\.js)$/;
      const extra = packed.files.filter(
        (f) =>
          !allowed.test(f) ||
          /\.map$|(^|\/)(tests?|emulator|playground|bench|scripts|\.ci)\//.test(f)
      );
      assert(
        extra.length === 0,
        `unexpected: ${extra.slice(0, 20).join(', ')}${extra.length > 20 ? ` (+${extra.length - 20})` : ''}`
      );
    }
  );
  await check('every package the built code requires is a dependency or a peer dependency', () => {
    const declared = declaredPackages();
    const undeclared = new Set<string>();
    for (const file of packed.files.filter((f) => /\.(c|m)?js$/.test(f))) {
      for (const spec of bareImports(readFileSync(path.join(ROOT, file), 'utf8'))) {
        if (!isBuiltin(spec) && !declared.has(packageName(spec)))
          undeclared.add(`${packageName(spec)} (${file})`);
      }
    }
    assert(undeclared.size === 0, `undeclared: ${[...undeclared].join(', ')}`);
  });
  await check(
    'every package the sources import is declared, so the build keeps it external instead of bundling a copy',
    () => {
      const declared = declaredPackages();
      const undeclared: string[] = [];
      for (const dir of ['server/src', 'admin/src']) {
        for (const [spec, file] of sourceImports(path.join(ROOT, dir))) {
          if (!isBuiltin(spec) && !declared.has(packageName(spec)))
            undeclared.push(`${spec} (${file})`);
        }
      }
      assert(
        undeclared.length === 0,
        `imported but neither a dependency nor a peer: ${undeclared.join(', ')}`
      );
    }
  );
  await check(
    "packages shared with Strapi's admin are peer dependencies, never dependencies",
    () => {
      const wrong = MUST_BE_PEERS.filter((name) => PKG.dependencies?.[name]);
      assert(wrong.length === 0, `in "dependencies": ${wrong.join(', ')}`);
      const missing = [
        '@strapi/strapi',
        'react',
        'react-dom',
        'react-router-dom',
        'styled-components',
      ].filter((n) => !PKG.peerDependencies?.[n]);
      assert(missing.length === 0, `not in "peerDependencies": ${missing.join(', ')}`);
    }
  );
  await check(
    `package.json: strapi block (kind plugin, name ${PLUGIN_ID}), engines cover node ${process.version}`,
    () => {
      assert(
        PKG.strapi?.kind === 'plugin' && PKG.strapi?.name === PLUGIN_ID && PKG.strapi?.displayName,
        `strapi block: ${JSON.stringify(PKG.strapi)}`
      );
      const semver = require('semver');
      assert(
        semver.satisfies(process.version, PKG.engines?.node),
        `engines.node ${PKG.engines?.node} excludes ${process.version}`
      );
    }
  );
}
