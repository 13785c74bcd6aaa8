/**
 * The app after `npm install <tarball>` and after `strapi build`: one copy of everything shared with
 * Strapi, no dependency problem of ours, and the plugin's admin inside the built admin.
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { MUST_BE_STRAPIS_COPY, PKG, PLUGIN_ID, ROOT, STRAPI_VERSION } from './config';
import { run } from './processes';
import { assert, check, errorText } from './report';

/** Where npm put the plugin inside the app. */
export const installedPlugin = (appDir: string) => path.join(appDir, 'node_modules', PKG.name);

interface InstalledPackage {
  name: string;
  version: string;
  dir: string;
  repository: string;
}

/** Every `@strapi/*` package installed anywhere in the app (hoisted or nested), read from disk. */
function installedStrapiPackages(appDir: string): InstalledPackage[] {
  const found: InstalledPackage[] = [];
  const visit = (modules: string) => {
    if (!existsSync(modules)) return;
    for (const name of readdirSync(modules)) {
      if (name.startsWith('.')) continue;
      const dirs = name.startsWith('@')
        ? readdirSync(path.join(modules, name)).map((n) => path.join(modules, name, n))
        : [path.join(modules, name)];
      for (const dir of dirs) {
        const manifest = path.join(dir, 'package.json');
        if (name === '@strapi' && existsSync(manifest)) {
          const pkg = JSON.parse(readFileSync(manifest, 'utf8'));
          const repository =
            typeof pkg.repository === 'string' ? pkg.repository : (pkg.repository?.url ?? '');
          found.push({ name: pkg.name, version: pkg.version, dir, repository });
        }
        visit(path.join(dir, 'node_modules'));
      }
    }
  };
  visit(path.join(appDir, 'node_modules'));
  return found;
}

/** Checks on the app's node_modules once the tarball is installed; `installOut` is npm's output. */
export async function installChecks(appDir: string, installOut: string): Promise<void> {
  await check('installing the plugin prints no peer dependency warning', () => {
    const warnings = installOut
      .split('\n')
      .filter((l) => /ERESOLVE|peer dep|conflicting peer|could not resolve/i.test(l));
    assert(warnings.length === 0, warnings.slice(0, 10).join('\n'));
  });
  const installed = installedPlugin(appDir);
  await check('installed plugin has no private copy of a package it shares with Strapi', () => {
    const nested = MUST_BE_STRAPIS_COPY.filter((name) =>
      existsSync(path.join(installed, 'node_modules', name))
    );
    assert(nested.length === 0, `nested under ${installed}/node_modules: ${nested.join(', ')}`);
  });
  await check(
    `every package of Strapi's own repository in the app is ${STRAPI_VERSION}; one copy of the design system and icons`,
    () => {
      const strapis = installedStrapiPackages(appDir);
      const own = strapis.filter((p) => /github\.com\/strapi\/strapi(\.git)?$/.test(p.repository));
      assert(
        own.some((p) => p.name === '@strapi/strapi'),
        `no @strapi/strapi among ${strapis.map((p) => p.name).join(', ')}`
      );
      const other = own.filter((p) => p.version !== STRAPI_VERSION);
      assert(
        other.length === 0,
        other.map((p) => `${p.name}@${p.version} (${path.relative(appDir, p.dir)})`).join(', ')
      );
      for (const name of ['@strapi/design-system', '@strapi/icons']) {
        const copies = strapis.filter((p) => p.name === name);
        assert(
          copies.length === 1,
          `${name}: ${copies.map((p) => `${p.version} (${path.relative(appDir, p.dir)})`).join(', ') || 'not installed'}`
        );
      }
    }
  );
  await check('npm ls reports no missing or invalid dependency of the plugin', async () => {
    let out = '';
    try {
      out = await run('npm', ['ls', '--all', '--json'], { cwd: appDir });
    } catch (err) {
      out = errorText(err); // npm ls exits 1 on any problem in the tree, Strapi's own included
    }
    const json = out.slice(out.indexOf('{'), out.lastIndexOf('}') + 1);
    const problems: string[] = (JSON.parse(json).problems ?? []) as string[];
    const ours = problems.filter((p) => p.includes(PKG.name));
    assert(ours.length === 0, ours.join('\n'));
  });
  await check("the plugin's runtime dependencies resolve from the app", () => {
    const missing = Object.keys(PKG.dependencies ?? {}).filter((dep) => {
      try {
        require.resolve(`${dep}/package.json`, { paths: [installed] });
        return false;
      } catch {
        return (
          !existsSync(path.join(appDir, 'node_modules', dep)) &&
          !existsSync(path.join(installed, 'node_modules', dep))
        );
      }
    });
    assert(missing.length === 0, `missing: ${missing.join(', ')}`);
  });
}

/** Checks on the admin `strapi build` made. */
export async function adminBuildChecks(appDir: string): Promise<void> {
  const installed = installedPlugin(appDir);
  const buildDir = [path.join(appDir, 'dist', 'build'), path.join(appDir, 'build')].find((d) =>
    existsSync(path.join(d, 'index.html'))
  );
  await check('the admin build exists', () =>
    assert(buildDir, `no index.html in ${appDir}/build or ${appDir}/dist/build`)
  );
  if (buildDir) {
    const built = readdirSync(buildDir).filter((f) => f.endsWith('.js'));
    const read = (f: string) => readFileSync(path.join(buildDir, f), 'utf8');
    await check("the admin entry Strapi generated imports the plugin's admin", () => {
      const entry = path.join(appDir, '.strapi', 'client', 'app.js');
      assert(existsSync(entry), `no ${entry}`);
      assert(
        readFileSync(entry, 'utf8').includes(`${PKG.name}/strapi-admin`),
        `${entry} does not import ${PKG.name}/strapi-admin`
      );
    });
    await check("the built admin holds the plugin's settings page chunk", () => {
      const ours = readdirSync(path.join(installed, 'dist', 'admin')).find((f) =>
        /^SettingsPage-.*\.mjs$/.test(f)
      );
      assert(ours, 'the package has no SettingsPage chunk in dist/admin');
      const prefix = ours.replace(/\.mjs$/, '');
      const chunk = built.find((f) => f.startsWith(`${prefix}-`) || f === `${prefix}.js`);
      assert(chunk, `no ${prefix}-*.js in ${buildDir}`);
      assert(read(chunk).includes(PLUGIN_ID), `${chunk} does not mention ${PLUGIN_ID}`);
    });
    await check("the built admin holds the plugin's English translations", () => {
      const en = JSON.parse(
        readFileSync(path.join(ROOT, 'admin', 'src', 'translations', 'en.json'), 'utf8')
      ) as Record<string, string>;
      const sample = Object.entries(en)
        .filter(([k, v]) => k.startsWith('settings.') && /^[\w .,:()-]+$/.test(v))
        .sort((a, b) => b[1].length - a[1].length)[0];
      assert(sample, 'no settings.* translation to look for');
      const holder = built.find((f) => read(f).includes(sample[1]));
      assert(holder, `"${sample[1]}" (${sample[0]}) is in no file of ${buildDir}`);
    });
  }
}

/** The plugin's migrations ran on the app's SQLite database. */
export async function databaseChecks(appDir: string): Promise<void> {
  await check("the plugin's tables exist in the app's SQLite database", async () => {
    const out = await run(
      'node',
      [
        '-e',
        `const db = new (require('better-sqlite3'))('.tmp/data.db', { readonly: true });
         console.log(JSON.stringify(db.prepare("select name from sqlite_master where type='table'").all().map((r) => r.name)));`,
      ],
      { cwd: appDir }
    );
    const tables: string[] = JSON.parse(out.trim().split('\n').pop()!);
    const missing = ['location_content_outbox', 'location_content_sync_states'].filter(
      (t) => !tables.includes(t)
    );
    assert(
      missing.length === 0,
      `missing: ${missing.join(', ')} (tables: ${tables.filter((t) => t.includes('location')).join(', ')})`
    );
  });
}
