/**
 * npm run bench:memory [-- --small 5000 --big 20000 --sqlite wal|delete|default]
 *
 * Peak RSS growth of the Strapi process during a resync of SMALL and of BIG published places.
 * For each size: one Strapi process seeds the database and exits; a fresh one (node --expose-gc)
 * boots with the same database, collects garbage, takes its RSS as the baseline, samples RSS
 * every 20 ms during resync() until the queue is idle, and reports peak - baseline.
 * Headline: growth(BIG) / growth(SMALL): flat memory means about 1.
 *
 * SQLite in WAL mode (synchronous=NORMAL) unless --sqlite delete|default, so that BIG fits in minutes; the
 * emulator has no rate limit and the plugin 1e6 requests/s, concurrency 8.
 */
const { ensureBuilt, round, table, saveResult, runMain } = require('./lib/common');
const { startEmulatorProcess } = require('./lib/emulator');
const { dbLabel, journalArg, useJournal, timedResync } = require('./lib/resync');
const { startChildApp } = require('../tests/helpers/child-app');

const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i === -1 ? Number(process.env[`BENCH_${name.toUpperCase()}`] ?? fallback) : Number(process.argv[i + 1]);
};
const SMALL = arg('small', 5_000);
const BIG = arg('big', 20_000);
const JOURNAL = journalArg(process.argv.includes('--no-wal') ? undefined : 'wal');
const MB = 2 ** 20;

async function measure(count, appDir) {
  const emu = await startEmulatorProcess({ strict: true, requestLogSize: 1_000 });
  const patch = { config: { syncEnabled: false, rateLimit: { requestsPerSecond: 1_000_000, concurrency: 8 } } };
  try {
    const seeder = await startChildApp({ appDir, emulator: emu, patch });
    await useJournal(seeder, JOURNAL);
    const seeded = await seeder.call('seedPlaces', { count, prefix: 'Memory' });
    await seeder.stop();
    process.stderr.write(`> ${count}: seeded in ${seeded.ms} ms, resync...\n`);

    const app = await startChildApp({ appDir, emulator: emu, patch, execArgv: ['--expose-gc'] });
    try {
      await useJournal(app, JOURNAL);
      const db = await dbLabel(app);
      await app.call('gc');
      const baseline = await app.call('rssWatch', { everyMs: 20 });
      const run = await timedResync(app, { timeoutMs: 1_800_000 });
      const mem = await app.call('memory');
      const summary = await emu.call('summary');
      if (summary.pinpoints !== count) throw new Error(`expected ${count} pinpoints on the emulator, got ${summary.pinpoints}`);
      return { count, db, baseline, peak: mem.rssPeak, growth: mem.rssPeak - baseline, heapUsedEnd: mem.heapUsed, wallMs: run.wallMs, rate: (count * 1000) / run.wallMs };
    } finally {
      await app.stop();
    }
  } finally {
    await emu.stop();
  }
}

runMain(async ({ appDir }) => {
  ensureBuilt();
  const small = await measure(SMALL, await appDir());
  const big = await measure(BIG, await appDir());
  const ratio = big.growth / small.growth;
  table([
    [`resync (${small.db})`, 'baseline RSS MB', 'peak RSS MB', 'growth MB', 'wall s', 'pushes/s'],
    ...[small, big].map((r) => [`${r.count} pinpoints`, round(r.baseline / MB, 1), round(r.peak / MB, 1), round(r.growth / MB, 1), round(r.wallMs / 1000, 1), round(r.rate, 1)]),
  ]);
  saveResult(`memory-${BIG}`, { small, big, ratio });
  process.stdout.write(`memory ratio growth(${BIG})/growth(${SMALL}): ${round(ratio, 3)} (goal <= 1.2)\n`);
});
