/**
 * npm run bench:all: every benchmark in sequence, each in its own process, then their headline
 * lines together (`<bench>: <figure> (goal …) ✓/✗`, bench/lib/headline.js), with the time each
 * took and the load average after it. Under 15 minutes on 2 cores. BENCH_PLUGIN_COMMIT=HEAD (or a
 * hash): every bench measures that one commit's build (resolved once, so a commit landing mid-run
 * changes nothing). Extra arguments are not passed on: each bench runs with the arguments below.
 * `--only latency,memory` or `--skip memory` picks runs by label.
 */
const { execFileSync, spawnSync } = require('node:child_process');
const { mkdirSync, writeFileSync } = require('node:fs');
const path = require('node:path');
const { ensureBuilt, machine, usageError, OUT, ROOT } = require('./lib/common');
const { loadText } = require('./lib/load');

/** One line per run: [label, script in bench/, its arguments]. */
const BENCHES = [
  ['efficiency', 'efficiency.js', []],
  // 60 lone publishes: a p50 and a p95 (the default 200 adds a minute for the same figures).
  ['freshness', 'freshness.js', ['--publishes', '60']],
  // 600 Icon saves a side (not 1,000): a median; the memory run against 100,000 needs the time (on a
  // slow day of this shared machine 800 a side took the whole set to 15.6 minutes). 200 Place
  // saves a side, printed and not judged: on MariaDB 600 took a minute of the set's 17.9 on a slow
  // stretch (47 ms each).
  ['save', 'save.js', ['--ops', '600', '--placeops', '200']],
  ['save:postgres', 'save.js', ['--db', 'postgres', '--ops', '600', '--placeops', '200']],
  ['save:mariadb', 'save.js', ['--db', 'mariadb', '--ops', '600', '--placeops', '200']],
  // 3,000 writes at 100/s (30 s): the use of the rate limit is a steady state after the first pause.
  ['ratelimit', 'ratelimit.js', ['--count', '3000']],
  ['ratelimit:postgres', 'ratelimit.js', ['--db', 'postgres', '--count', '3000']],
  ['ratelimit:mariadb', 'ratelimit.js', ['--db', 'mariadb', '--count', '3000']],
  // 10,000 at 50 ms as the goal says; 800 at 200 ms (20 s, not 250): the ratio is a steady state,
  // reached in the first seconds; the CPU per push without latency and the bare client on fewer.
  ['latency', 'latency.js', ['--slowcount', '800', '--fastcount', '5000', '--barecount', '800']],
  // The 100,000 in 160 MB against the same 100,000 without the limit, as the goal says (until the
  // eighth session the set compared with 30,000 to save 80 s; a resync slows down with its size,
  // 977 -> 916 pushes/s from 30,000 to 100,000, so that ratio carried the size as well as the heap),
  // run before and after it (the machine's drift between two runs was as large as the limit's cost).
  ['memory', 'memory.js', []],
  ['recovery', 'recovery.js', []],
  // For reference: the same on an account never walked (walkOnLink: false), and entries published
  // while the walk at linking still runs.
  ['recovery:never-walked', 'recovery.js', ['--link', 'off', '--runs', '1']],
  ['recovery:during-link', 'recovery.js', ['--link', 'during', '--runs', '1']],
  ['inventory', 'inventory.js', []],
];
// Not in the set: bench:throughput (a reference without goal since issue 16: bench:latency's run with
// no latency added gives the CPU per push of an unlimited resync) and bench:emulator (the emulator alone).

// One commit for the whole run, even if someone commits meanwhile.
const git = (args) => execFileSync('git', args, { cwd: ROOT, encoding: 'utf8' }).trim();
/** null outside a git checkout */
const gitOrNull = (args) => {
  try {
    return git(args);
  } catch {
    return null;
  }
};
if (process.env.BENCH_PLUGIN_COMMIT) {
  process.env.BENCH_PLUGIN_COMMIT = git([
    'rev-parse',
    '--verify',
    `${process.env.BENCH_PLUGIN_COMMIT}^{commit}`,
  ]);
}
/** --only / --skip: bench labels, comma-separated; one that names no bench ends the run before it starts. */
const listArg = (name) => {
  const i = process.argv.indexOf(`--${name}`);
  if (i === -1) return null;
  const labels = (process.argv[i + 1] ?? '').split(',');
  const known = BENCHES.map(([label]) => label);
  const unknown = labels.filter((label) => !known.includes(label));
  if (unknown.length > 0)
    usageError(
      `--${name}: no bench named ${unknown.map((l) => l || '""').join(', ')} (benches: ${known.join(', ')})`
    );
  return new Set(labels);
};
const only = listArg('only');
const skip = listArg('skip') ?? new Set();
const runs = BENCHES.filter(([label]) => (!only || only.has(label)) && !skip.has(label));

ensureBuilt();
const started = Date.now();
// What was measured when it is the working tree (dist/) rather than a commit's build.
const head = gitOrNull(['rev-parse', 'HEAD']);
const status = gitOrNull(['status', '--porcelain', '--untracked-files=no']);
const uncommitted = status === null ? null : status !== '';
// Each bench saves its figures and tables here too, under its label: `npm run bench:report` turns
// the folder into bench/RESULTS.md's current figures.
const runDir = path.join(OUT, 'runs', new Date(started).toISOString().replace(/[:.]/g, '-'));
mkdirSync(runDir, { recursive: true });
process.stdout.write(`bench:all started ${new Date(started).toISOString()}, load ${loadText()}\n`);
const headlines = [];
const done = [];
let failed = 0;
for (const [label, script, args] of runs) {
  process.stdout.write(`\n=== bench:${label} ${args.join(' ')} ===\n`);
  const t = Date.now();
  const r = spawnSync(process.execPath, [path.join(__dirname, script), ...args], {
    stdio: ['ignore', 'pipe', 'inherit'],
    encoding: 'utf8',
    env: { ...process.env, BENCH_RUN_DIR: runDir, BENCH_LABEL: label },
  });
  process.stdout.write(r.stdout ?? '');
  const last = (r.stdout ?? '').trim().split('\n').pop();
  if (r.status !== 0) failed++;
  const seconds = Math.round((Date.now() - t) / 1000);
  const load = loadText();
  headlines.push(
    `${r.status === 0 ? last : `${label}: FAILED (exit ${r.status}) ✗`}  [${seconds} s, load ${load}]`
  );
  done.push({ label, script, args, status: r.status, seconds, loadAfter: load });
}
const minutes = (Date.now() - started) / 60_000;
writeFileSync(
  path.join(runDir, 'all.json'),
  JSON.stringify(
    {
      started: new Date(started).toISOString(),
      ended: new Date().toISOString(),
      minutes,
      whole: !only && skip.size === 0,
      machine: machine(),
      head,
      uncommitted,
      runs: done,
    },
    null,
    2
  )
);
process.stdout.write(
  `\n=== headlines (${minutes.toFixed(1)} min in all) ===\n${headlines.join('\n')}\n` +
    `\nFigures and tables kept in ${path.relative(process.cwd(), runDir)}: \`npm run bench:report\` writes them into bench/RESULTS.md.\n`
);
process.exit(failed ? 1 : 0);
