/**
 * npm run bench:report [-- <run folder> --print --partial]
 *
 * Writes the figures of a `bench:all` run into bench/RESULTS.md, between its two `bench:report`
 * markers: date, machine, what was measured, the command, a table of the headlines and one table
 * per bench, as each printed it. The run is bench/.out/runs/<start>/ (the newest by default), which
 * bench:all fills: all.json for the set, <label>.json for each bench (bench/lib/common.js
 * saveResult). `--print` writes the section to stdout instead. A run of part of the set (`--only`,
 * `--skip`) replaces the figures only with `--partial`. Everything outside the markers is left as
 * it is.
 */
const { existsSync, readFileSync, readdirSync, writeFileSync } = require('node:fs');
const path = require('node:path');
const { OUT, ROOT } = require('./lib/common');

const RESULTS = path.join(ROOT, 'bench', 'RESULTS.md');
const START =
  '<!-- bench:report start: `npm run bench:report` writes what is between these lines -->';
const END = '<!-- bench:report end -->';

function runFolder() {
  const given = process.argv.slice(2).find((a) => !a.startsWith('--'));
  if (given) return path.resolve(given);
  const runs = path.join(OUT, 'runs');
  const done = existsSync(runs)
    ? readdirSync(runs)
        .filter((d) => existsSync(path.join(runs, d, 'all.json')))
        .sort()
    : [];
  if (!done.length) throw new Error(`no finished bench:all run in ${runs}: run npm run bench:all`);
  return path.join(runs, done[done.length - 1]);
}

const readJson = (file) => JSON.parse(readFileSync(file, 'utf8'));
const cell = (v) =>
  String(v ?? '')
    .replace(/\|/g, '\\|')
    .replace(/\n/g, ' ');
const mdTable = (rows) =>
  [rows[0], rows[0].map(() => '---'), ...rows.slice(1)]
    .map((r) => `| ${r.map(cell).join(' | ')} |`)
    .join('\n');
const utc = (iso) => iso.replace('T', ' ').replace(/\.\d+Z$/, ' UTC');
const mark = (ok) => (ok === null || ok === undefined ? '' : ok ? '✓' : '✗');

function section(dir) {
  const all = readJson(path.join(dir, 'all.json'));
  const m = all.machine;
  const measured = m.plugin.startsWith('commit ')
    ? `the build of commit \`${m.plugin.slice('commit '.length, 'commit '.length + 12)}\` (\`BENCH_PLUGIN_COMMIT\`)`
    : `the working tree's \`dist/\`, on commit \`${(all.head ?? 'unknown').slice(0, 12)}\`${all.uncommitted ? ' with uncommitted changes' : ''}`;
  const results = all.runs.map((r) => {
    const file = path.join(dir, `${r.label}.json`);
    return { run: r, result: existsSync(file) ? readJson(file) : null };
  });
  const out = [
    '## Current figures',
    '',
    `\`bench:all\` from ${utc(all.started)} to ${utc(all.ended)}: **${all.minutes.toFixed(1)} min in all**` +
      `${all.whole ? '' : ' (part of the set only)'}. It measured ${measured}.`,
    `The machine: ${m.cpus} × ${m.cpuModel}, ${m.memGb} GiB, Node ${m.node.replace(/^v/, '')}, ${m.platform}; load average ${m.loadAvg1m.toFixed(2)} when the set ended.`,
    '',
    mdTable([
      ['bench', 'figure', 'goal', 'met', 'time', 'load after'],
      ...results.map(({ run, result }) => {
        const h = run.status === 0 ? result?.headline : undefined;
        return [
          run.label,
          h ? h.figure : `failed (exit ${run.status})`,
          h ? (h.goal ?? '(no goal)') : '',
          h ? mark(h.ok) : '✗',
          `${run.seconds} s`,
          run.loadAfter,
        ];
      }),
    ]),
  ];
  for (const { run, result } of results) {
    out.push('', `### ${run.label}`, '');
    if (!result) {
      out.push(
        `Failed (exit ${run.status}), no figures: \`node bench/${run.script} ${run.args.join(' ')}\`.`
      );
      continue;
    }
    out.push(`\`${result.command}\``);
    for (const t of result.tables ?? []) out.push('', mdTable(t));
  }
  return out.join('\n');
}

async function main() {
  const dir = runFolder();
  const prettier = require('prettier');
  const options = { ...(await prettier.resolveConfig(RESULTS)), parser: 'markdown' };
  const whole = readJson(path.join(dir, 'all.json')).whole;
  if (!whole && !process.argv.includes('--print') && !process.argv.includes('--partial'))
    throw new Error(
      `${path.relative(ROOT, dir)} ran part of the set (--only/--skip): --partial writes it in place of the whole set's figures anyway`
    );
  const text = section(dir);
  if (process.argv.includes('--print')) {
    process.stdout.write(await prettier.format(text, options));
    return;
  }
  const now = readFileSync(RESULTS, 'utf8');
  const a = now.indexOf(START);
  const b = now.indexOf(END);
  if (a === -1 || b < a) throw new Error(`bench/RESULTS.md has no ${START} … ${END} markers`);
  const next = `${now.slice(0, a + START.length)}\n\n${text}\n\n${now.slice(b)}`;
  writeFileSync(RESULTS, await prettier.format(next, options));
  process.stdout.write(`bench/RESULTS.md: current figures from ${path.relative(ROOT, dir)}\n`);
}

main().catch((err) => {
  process.stderr.write(`bench:report failed: ${err?.message ?? err}\n`);
  process.exit(1);
});
