/** Shared bits of the benchmarks: figures, tables, machine facts, the plugin build, app folders. */
const { execSync } = require('node:child_process');
const { mkdirSync, writeFileSync } = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { makeAppDir, removeDir } = require('../../tests/helpers/node')('app-dir');
const { builtAt, newestMtime } = require('../../scripts/mtimes');

const ROOT = path.resolve(__dirname, '..', '..');
const OUT = path.join(ROOT, 'bench', '.out');

/**
 * The playground loads the plugin from dist/: build it when the server source is newer.
 * With BENCH_PLUGIN_COMMIT, the child apps load a build of that commit instead (bench/lib/snapshot.js).
 */
function ensureBuilt() {
  if (process.env.BENCH_PLUGIN_COMMIT) {
    const { dir, sha } = require('./snapshot').snapshot(process.env.BENCH_PLUGIN_COMMIT);
    process.env.LC_PLUGIN_PATH = dir;
    process.env.BENCH_PLUGIN_SHA = sha;
    process.stderr.write(`> plugin as of ${sha.slice(0, 12)}\n`);
    return;
  }
  const built = builtAt([path.join(ROOT, 'dist', 'server', 'index.js')]);
  if (built >= newestMtime(path.join(ROOT, 'server', 'src'))) return;
  process.stderr.write('> dist/ is older than server/src: npx strapi-plugin build\n');
  execSync('npx strapi-plugin build', { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
}

/** A playground copy: the snapshot's playground when measuring a commit, else this tree's. */
const appDir = () =>
  makeAppDir(
    path.join(OUT, 'apps'),
    process.env.LC_PLUGIN_PATH ? path.join(process.env.LC_PLUGIN_PATH, 'playground') : undefined
  );

function percentile(values, p) {
  if (!values.length) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[i];
}
const median = (v) => percentile(v, 50);
const round = (x, d = 2) => (Number.isFinite(x) ? Math.round(x * 10 ** d) / 10 ** d : x);

/** Every table this process printed, in order: saveResult keeps them for bench/RESULTS.md. */
const printedTables = [];

/** Prints rows as an aligned table (first row = header). */
function table(rows) {
  printedTables.push(rows.map((r) => r.map(String)));
  const widths = rows[0].map((_, c) => Math.max(...rows.map((r) => String(r[c]).length)));
  const line = (r) =>
    r
      .map((cell, c) =>
        c === 0 ? String(cell).padEnd(widths[c]) : String(cell).padStart(widths[c])
      )
      .join('  ');
  const out = [
    line(rows[0]),
    widths.map((w) => '-'.repeat(w)).join('  '),
    ...rows.slice(1).map(line),
  ];
  process.stdout.write(`${out.join('\n')}\n`);
}

const machine = () => ({
  date: new Date().toISOString(),
  plugin: process.env.BENCH_PLUGIN_SHA
    ? `commit ${process.env.BENCH_PLUGIN_SHA}`
    : 'working tree (dist/)',
  cpus: os.cpus().length,
  cpuModel: os.cpus()[0]?.model ?? 'unknown',
  memGb: Math.round(os.totalmem() / 2 ** 30),
  node: process.version,
  platform: `${os.platform()} ${os.release()}`,
  loadAvg1m: os.loadavg()[0],
});

/** How this bench was started: `node bench/<script> <arguments>`. */
const command = () =>
  ['node', path.relative(ROOT, process.argv[1]), ...process.argv.slice(2)].join(' ');

/** Where saveResult wrote last, so that the headline joins the same file. */
let saved = null;

/**
 * Keeps the figures of a run (bench/.out/results/<name>.json), with the tables it printed and the
 * command that started it. Under bench:all (BENCH_RUN_DIR, BENCH_LABEL), also as <label>.json in
 * that run's folder, which `npm run bench:report` turns into bench/RESULTS.md's current figures.
 */
function saveResult(name, result) {
  const dir = path.join(OUT, 'results');
  mkdirSync(dir, { recursive: true });
  const data = { name, machine: machine(), command: command(), tables: printedTables, ...result };
  const files = [path.join(dir, `${name}.json`)];
  if (process.env.BENCH_RUN_DIR && process.env.BENCH_LABEL) {
    mkdirSync(process.env.BENCH_RUN_DIR, { recursive: true });
    files.push(path.join(process.env.BENCH_RUN_DIR, `${process.env.BENCH_LABEL}.json`));
  }
  saved = { files, data };
  for (const f of files) writeFileSync(f, JSON.stringify(data, null, 2));
}

/** The headline joins the result saved just before it (bench/lib/headline.js). */
function saveHeadline(headline) {
  if (!saved) return;
  saved.data.headline = headline;
  for (const f of saved.files) writeFileSync(f, JSON.stringify(saved.data, null, 2));
}

/** Polls `check` every `everyMs` until it returns a truthy value or `timeoutMs` runs out (then throws). */
async function until(check, what, timeoutMs = 300_000, everyMs = 50) {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await check();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

/** Runs main, prints any failure, cleans the app folders made, and exits (children die with us). */
function runMain(main) {
  const dirs = [];
  const track = async () => {
    const d = await appDir();
    dirs.push(d);
    return d;
  };
  main({ appDir: track })
    .then(
      () => 0,
      (err) => {
        process.stderr.write(`bench failed: ${err?.stack ?? err}\n`);
        return 1;
      }
    )
    .then(async (code) => {
      if (!process.env.BENCH_KEEP) for (const d of dirs) await removeDir(d).catch(() => undefined);
      process.exit(code);
    });
}

/** Ends the bench on a wrong argument: one line, no stack. */
function usageError(message) {
  process.stderr.write(`${path.basename(process.argv[1])}: ${message}\n`);
  process.exit(2);
}

/** A number from `--name N` on the command line, else from BENCH_NAME in the environment, else `fallback`. */
const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  const raw = i === -1 ? process.env[`BENCH_${name.toUpperCase()}`] : process.argv[i + 1];
  const v = raw === undefined || raw === '' ? fallback : Number(raw);
  if (!Number.isFinite(v) || v < 0) usageError(`--${name} must be a number >= 0, not ${raw}`);
  return v;
};

/** One of `choices` from `--name X` on the command line, else from BENCH_NAME, else `fallback`. */
const choiceArg = (name, choices, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  const raw = i === -1 ? process.env[`BENCH_${name.toUpperCase()}`] : process.argv[i + 1];
  if (raw === undefined || raw === '') return fallback;
  if (!choices.includes(raw))
    usageError(`--${name} must be one of ${choices.join(', ')}, not ${raw}`);
  return raw;
};

module.exports = {
  ROOT,
  OUT,
  ensureBuilt,
  appDir,
  percentile,
  median,
  round,
  table,
  machine,
  saveResult,
  saveHeadline,
  until,
  runMain,
  arg,
  choiceArg,
  usageError,
};
