import { promises as fs } from 'node:fs';
import path from 'node:path';
import { builtAdmin } from '../../scripts/admin-build';
import { ROOT, makeAppDir } from '../helpers/strapi';

/**
 * An app folder (copy of the playground) with the admin panel built into `<appDir>/build`, where
 * Strapi serves it from: the one build of scripts/admin-build.ts, shared with `npm run demo`
 * (and so with tests/e2e/demo.test.ts), copied while nothing it is made of changed.
 * The plugin itself must be built first (`npx strapi-plugin build`): the admin bundles dist/admin.
 */
export async function appWithBuiltAdmin(): Promise<string> {
  const appDir = await makeAppDir();
  if (path.relative(ROOT, appDir).startsWith('..'))
    await fs.symlink(path.join(ROOT, 'node_modules'), path.join(appDir, 'node_modules'), 'dir');
  await builtAdmin(appDir);
  return appDir;
}
