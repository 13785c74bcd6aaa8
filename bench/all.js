/**
 * npm run bench:all: every benchmark in sequence, each in its own process, then their headline
 * lines together. Extra arguments are not passed on (each bench takes its defaults).
 * About 8-12 minutes on 2 cores. BENCH_PLUGIN_COMMIT=HEAD (or a hash): every bench measures
 * that one commit's build (resolved once, so a commit landing mid-run changes nothing).
 */
const { execFileSync, spawnSync } = require('node:child_process');
const path = require('node:path');
const { ensureBuilt } = require('./lib/common');

const BENCHES = ['efficiency', 'freshness', 'save', 'ratelimit', 'throughput', 'memory'];

// One commit for the whole run, even if someone commits meanwhile.
if (process.env.BENCH_PLUGIN_COMMIT) {
  process.env.BENCH_PLUGIN_COMMIT = execFileSync('git', ['rev-parse', '--verify', `${process.env.BENCH_PLUGIN_COMMIT}^{commit}`], { cwd: path.join(__dirname, '..'), encoding: 'utf8' }).trim();
}
ensureBuilt();
const headlines = [];
let failed = 0;
for (const name of BENCHES) {
  process.stdout.write(`\n=== bench:${name} ===\n`);
  const t = Date.now();
  const r = spawnSync(process.execPath, [path.join(__dirname, `${name}.js`)], { stdio: ['ignore', 'pipe', 'inherit'], encoding: 'utf8' });
  process.stdout.write(r.stdout ?? '');
  const last = (r.stdout ?? '').trim().split('\n').pop();
  if (r.status !== 0) failed++;
  headlines.push(`${`bench:${name}`.padEnd(18)} ${r.status === 0 ? last : `FAILED (exit ${r.status})`}  [${Math.round((Date.now() - t) / 1000)} s]`);
}
process.stdout.write(`\n=== headlines ===\n${headlines.join('\n')}\n`);
process.exit(failed ? 1 : 0);
