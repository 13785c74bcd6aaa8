/**
 * The plugin as committed at one commit, built on its own: benchmarks of a shared working tree
 * would otherwise measure whatever half-finished change sits in dist/ at that moment.
 *
 *   BENCH_PLUGIN_COMMIT=HEAD npm run bench:all      (or a hash, a tag)
 *   node bench/lib/snapshot.js [commit]             prints the folder
 *
 * The snapshot is bench/.out/plugin-<sha>/ (git archive + node_modules linked to the root's +
 * `strapi-plugin build`), built once and reused.
 */
const { execFileSync, execSync } = require('node:child_process');
const { existsSync, mkdirSync, symlinkSync, rmSync } = require('node:fs');
const path = require('node:path');

const ROOT = path.resolve(__dirname, '..', '..');

function snapshot(commit = 'HEAD') {
  const sha = execFileSync('git', ['rev-parse', '--verify', `${commit}^{commit}`], {
    cwd: ROOT,
    encoding: 'utf8',
  }).trim();
  const dir = path.join(ROOT, 'bench', '.out', `plugin-${sha.slice(0, 12)}`);
  if (existsSync(path.join(dir, 'dist', 'server', 'index.js'))) return { dir, sha };
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  process.stderr.write(
    `> building the plugin as of ${sha.slice(0, 12)} in ${path.relative(ROOT, dir)}\n`
  );
  execSync(`git archive ${sha} | tar -x -C ${JSON.stringify(dir)}`, {
    cwd: ROOT,
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  symlinkSync(path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
  execSync('npx strapi-plugin build', { cwd: dir, stdio: ['ignore', 'ignore', 'inherit'] });
  return { dir, sha };
}

module.exports = { snapshot };

if (require.main === module) process.stdout.write(`${snapshot(process.argv[2]).dir}\n`);
