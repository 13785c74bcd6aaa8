/**
 * better-sqlite3 installs a prebuilt binary it downloads from GitHub, or compiles itself with node-gyp
 * (minutes of CPU) when it cannot download one. prebuild-install first looks in the npm cache
 * (`<npm cache>/_prebuilds/`) under the name of the file it would download: keeping there the binary the
 * first install compiled lets every later install of the same better-sqlite3 for the same Node ABI,
 * platform and libc (the name says all four) unpack it instead of compiling it again, as a download
 * would. The install itself is unchanged: npm resolves, fetches and runs every install script.
 */
import { existsSync, promises as fs } from 'node:fs';
import path from 'node:path';

type Run = (
  cmd: string,
  args: string[],
  opts: { cwd: string; env?: NodeJS.ProcessEnv }
) => Promise<string>;

/** Asks the app's own prebuild-install where it looks for a cached prebuild of the app's better-sqlite3. */
const WHERE = `
const pkg = require('better-sqlite3/package.json');
const rc = require('prebuild-install/rc')(pkg);
const util = require('prebuild-install/util');
console.log(JSON.stringify({ cached: util.cachedPrebuild(util.getDownloadUrl({ ...rc, pkg })), dir: require('path').dirname(require.resolve('better-sqlite3/package.json')) }));
`;

/** Returns what it did, for the log. */
export async function keepCompiledSqlite(
  appDir: string,
  env: NodeJS.ProcessEnv,
  run: Run
): Promise<string> {
  const cache = (await run('npm', ['config', 'get', 'cache'], { cwd: appDir, env }))
    .trim()
    .split('\n')
    .pop()!;
  const out = await run('node', ['-e', WHERE], {
    cwd: appDir,
    env: { ...env, npm_config_cache: cache },
  });
  const { cached, dir } = JSON.parse(out.trim().split('\n').pop()!) as {
    cached: string;
    dir: string;
  };
  if (existsSync(cached)) return `better-sqlite3 prebuild already cached: ${cached}`;
  const binary = path.join('build', 'Release', 'better_sqlite3.node');
  if (!existsSync(path.join(dir, binary))) return `no ${binary} in ${dir}: nothing to cache`;
  await fs.mkdir(path.dirname(cached), { recursive: true });
  const partial = `${cached}.${process.pid}.tmp`;
  await run('tar', ['-czf', partial, '-C', dir, binary], { cwd: appDir, env });
  await fs.rename(partial, cached);
  return `kept the compiled better-sqlite3 as ${cached}: the next install of it unpacks it instead of compiling`;
}
