/**
 * npm run bench:memory [-- --small 5000 --big 50000 --rate 1000000 --sqlite wal|delete|default]
 *
 * Peak RSS growth of the Strapi process during a resync of SMALL and of BIG published places.
 * For each size: one Strapi process seeds the database and exits; a fresh one (node --expose-gc)
 * boots with the same database, collects garbage, takes its RSS as the baseline, samples RSS
 * every 20 ms during resync() until the queue is idle, and reports peak - baseline.
 * Headline: growth(BIG) / growth(SMALL): flat memory means about 1.
 * A second pass per size (same seed, fresh process) collects garbage every 2 s during the resync
 * and records the heap that survives: what the run really keeps, apart from V8's sizing of its
 * heap to the allocation rate (the peak RSS follows that sawtooth: see RESULTS.md).
 *
 * SQLite in WAL mode (synchronous=NORMAL) unless --sqlite delete|default, so that BIG fits in minutes; the
 * emulator has no rate limit and the plugin 1e6 requests/s, concurrency 8.
 */
const { ensureBuilt, round, table, saveResult, runMain, arg } = require('./lib/common');
const { startEmulatorProcess } = require('./lib/emulator');
const { dbLabel, journalArg, useJournal, timedResync } = require('./lib/resync');
const { startChildApp } = require('../tests/helpers/child-app');

const SMALL = arg('small', 5_000);
const BIG = arg('big', 50_000);
/** the plugin's requestsPerSecond (and the emulator has no limit): by default none to speak of */
const RATE = arg('rate', 1_000_000);
const JOURNAL = journalArg(process.argv.includes('--no-wal') ? undefined : 'wal');
const MB = 2 ** 20;

async function measure(count, appDir, { retained = false } = {}) {
  const emu = await startEmulatorProcess({ strict: true, requestLogSize: 1_000 });
  const patch = { config: { syncEnabled: false, rateLimit: { requestsPerSecond: RATE, concurrency: 8 } } };
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
      const heapAtStart = (await app.call('memory')).heapUsed;
      let sampling = retained;
      const kept = [];
      const sampler = (async () => {
        while (sampling) {
          await new Promise((r) => setTimeout(r, 2000));
          if (!sampling) break;
          await app.call('gc');
          kept.push((await app.call('memory')).heapUsed);
        }
      })();
      const run = await timedResync(app, { timeoutMs: 1_800_000 }).finally(() => (sampling = false));
      await sampler;
      if (retained) {
        await app.call('gc');
        const end = (await app.call('memory')).heapUsed;
        return { count, heapAtStart, heapKeptMax: Math.max(end, ...kept), heapKeptEnd: end, samples: kept.length };
      }
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
  const keptSmall = await measure(SMALL, await appDir(), { retained: true });
  const keptBig = await measure(BIG, await appDir(), { retained: true });
  const ratio = big.growth / small.growth;
  const keptRatio = (keptBig.heapKeptMax - keptBig.heapAtStart) / Math.max(1, keptSmall.heapKeptMax - keptSmall.heapAtStart);
  table([
    [`resync (${small.db})`, 'baseline RSS MB', 'peak RSS MB', 'growth MB', 'wall s', 'pushes/s', 'heap at start MB', 'heap kept, max of GCs every 2 s MB', 'after the run MB'],
    ...[[small, keptSmall], [big, keptBig]].map(([r, k]) => [
      `${r.count} pinpoints`, round(r.baseline / MB, 1), round(r.peak / MB, 1), round(r.growth / MB, 1), round(r.wallMs / 1000, 1), round(r.rate, 1),
      round(k.heapAtStart / MB, 1), round(k.heapKeptMax / MB, 1), round(k.heapKeptEnd / MB, 1),
    ]),
  ]);
  process.stdout.write(`heap kept (max after GC - at start), ${BIG} / ${SMALL}: ${round(keptRatio, 2)}\n`);
  saveResult(`memory-${BIG}`, { small, big, ratio, keptSmall, keptBig, keptRatio });
  process.stdout.write(`memory ratio growth(${BIG})/growth(${SMALL}): ${round(ratio, 3)} (goal <= 1.2)\n`);
});
