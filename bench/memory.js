/**
 * npm run bench:memory [-- --small 10000 --big 100000 --freecount 100000 --bracket 1 --heap 160 --rate 1000000 --sqlite wal|delete|default]
 *
 * A small container: Strapi started with --max-old-space-size=HEAP (160 MB of old space: what a
 * 512 MB container leaves a Node process next to its native memory) resyncs BIG published
 * places. Goals: it completes, at >= 0.9 of the pushes/s of the same resync in a process without
 * the limit; the heap kept after a full GC at the end of the run, BIG ÷ SMALL, <= 1.1 (a resync
 * that holds something per entry shows here, whatever V8 does with its heap meanwhile). Peak RSS
 * is printed, not judged (V8 sizes its heap to the allocation rate: see bench/HISTORY.md).
 *
 * Each run: one Strapi process (node --expose-gc, and the limit or not) seeds its database with
 * direct inserts (tests/helpers/seed.ts: a few seconds for 100,000), collects garbage, samples its
 * RSS every 20 ms during resync() until the queue is idle, then collects garbage again and reads
 * heapUsed; it counts the mark-compacts and GC pauses of the resync (bench/lib/gc.js), which a
 * noisy machine does not move the way it moves pushes/s. One boot per run: seeding in the
 * measured process leaves nothing behind once garbage is collected (the heap at start is printed).
 * Runs: SMALL limited, FREE unlimited (BIG by default), BIG limited, and FREE unlimited again
 * (unless --bracket 0): the limited run is compared with the mean of the unlimited runs on either
 * side of it. This machine's speed drifts by up to a fifth within minutes (bench/HISTORY.md), and a
 * single unlimited run before the limited one measured that drift as much as the heap limit.
 * SQLite in WAL mode (synchronous=NORMAL) unless --sqlite delete|default; the emulator has no
 * rate limit and the plugin RATE requests/s, concurrency 8.
 * Figures are wall-clock bound on a shared machine: the load average is printed next to each run.
 */
const { headline } = require('./lib/headline');
const { ensureBuilt, round, table, saveResult, runMain, arg } = require('./lib/common');
const { startEmulatorProcess } = require('./lib/emulator');
const { dbLabel, journalArg, useJournal, timedResync } = require('./lib/resync');
const { loadNow, loadText } = require('./lib/load');
const { startProfile, stopProfile } = require('./lib/profile');
const { startGcWatch, stopGcWatch } = require('./lib/gc');
const { startChildApp } = require('../tests/helpers/node')('child-app');

const SMALL = arg('small', 10_000);
const BIG = arg('big', 100_000);
/** pinpoints of the unlimited run, whose pushes/s the limited run is compared with */
const FREE = arg('freecount', BIG);
const HEAP = arg('heap', 160);
/** 0: no second unlimited run after the limited one (quicker, but the ratio then carries the machine's drift) */
const BRACKET = arg('bracket', 1);
/** the plugin's requestsPerSecond (and the emulator has no limit): by default none to speak of */
const RATE = arg('rate', 1_000_000);
const JOURNAL = journalArg(process.argv.includes('--no-wal') ? undefined : 'wal');
const MB = 2 ** 20;
const GOAL_RATE = 0.9;
const GOAL_HEAP = 1.1;

async function measure(count, appDir, { heapMb } = {}) {
  const emu = await startEmulatorProcess({ strict: true, requestLogSize: 1_000 });
  const patch = {
    config: { syncEnabled: false, rateLimit: { requestsPerSecond: RATE, concurrency: 8 } },
  };
  try {
    const label = `${count} pinpoints, ${heapMb ? `--max-old-space-size=${heapMb}` : 'no heap limit'}`;
    const execArgv = ['--expose-gc', ...(heapMb ? [`--max-old-space-size=${heapMb}`] : [])];
    const app = await startChildApp({ appDir, emulator: emu, patch, execArgv });
    try {
      await useJournal(app, JOURNAL);
      const db = await dbLabel(app);
      const seeded = await app.call('seedPlaces', { count, prefix: 'Memory' });
      process.stderr.write(`> ${label}: seeded in ${seeded.ms} ms, resync...\n`);
      await app.call('gc');
      const baseline = await app.call('rssWatch', { everyMs: 20 });
      const heapAtStart = (await app.call('memory')).heapUsed;
      const loadBefore = loadNow();
      await startProfile(app);
      await startGcWatch(app);
      // An hour: a loaded machine stretched the 100,000 run to 20-30 min (bench/HISTORY.md); a quiet one needs 2.
      const run = await timedResync(app, { timeoutMs: 3_600_000 });
      const gc = await stopGcWatch(app);
      await stopProfile(app, `memory-${count}-${heapMb ?? 'unlimited'}`);
      const loadAfter = loadNow();
      const peak = (await app.call('memory')).rssPeak;
      const heapKept = (await app.call('gc')).heapUsed;
      const summary = await emu.call('summary');
      if (summary.pinpoints !== count || summary.duplicateNames) {
        throw new Error(
          `${label}: expected ${count} pinpoints on the emulator, got ${summary.pinpoints} (${summary.duplicateNames} duplicate names)`
        );
      }
      return {
        label,
        count,
        heapMb: heapMb ?? null,
        db,
        baseline,
        peak,
        heapAtStart,
        heapKept,
        wallMs: run.wallMs,
        rate: (count * 1000) / run.wallMs,
        cpuMsPerPush: run.cpuMs / count,
        gc,
        loadBefore,
        loadAfter,
      };
    } finally {
      await app.stop();
    }
  } catch (err) {
    // Running out of heap is a figure of this bench, not a crash of the bench: say it and go on.
    process.stderr.write(
      `> ${count} pinpoints${heapMb ? ` with ${heapMb} MB of heap` : ''} did not complete: ${String(err?.message ?? err).split('\n')[0]}\n`
    );
    return {
      count,
      heapMb: heapMb ?? null,
      label: `${count} pinpoints, ${heapMb ? `--max-old-space-size=${heapMb}` : 'no heap limit'}`,
      failed: String(err?.message ?? err).slice(0, 2000),
    };
  } finally {
    await emu.stop();
  }
}

runMain(async ({ appDir }) => {
  ensureBuilt();
  const small = await measure(SMALL, await appDir(), { heapMb: HEAP });
  const free = await measure(FREE, await appDir());
  const big = await measure(BIG, await appDir(), { heapMb: HEAP });
  const freeAfter = BRACKET ? await measure(FREE, await appDir()) : null;
  if (freeAfter && !freeAfter.failed) freeAfter.label += ', again';
  const runs = [small, free, big, ...(freeAfter ? [freeAfter] : [])];
  const frees = [free, freeAfter].filter((r) => r && !r.failed);
  table([
    [
      `resync (${runs.find((r) => r.db)?.db ?? 'SQLite'})`,
      'completed',
      'wall s',
      'pushes/s',
      'Strapi CPU ms/push',
      'mark-compacts',
      'GC pauses s',
      'baseline RSS MB',
      'peak RSS MB',
      'heap at start MB',
      'heap kept after GC MB',
      'load before',
      'load after',
    ],
    ...runs.map((r) =>
      r.failed
        ? [r.label, 'no', '', '', '', '', '', '', '', '', '', '', '']
        : [
            r.label,
            'yes',
            round(r.wallMs / 1000, 1),
            round(r.rate, 1),
            round(r.cpuMsPerPush, 3),
            r.gc.markCompacts,
            round(r.gc.pauseMs / 1000, 1),
            round(r.baseline / MB, 1),
            round(r.peak / MB, 1),
            round(r.heapAtStart / MB, 1),
            round(r.heapKept / MB, 1),
            loadText(r.loadBefore),
            loadText(r.loadAfter),
          ]
    ),
  ]);
  const completed = !big.failed;
  const freeRate = frees.length ? frees.reduce((sum, r) => sum + r.rate, 0) / frees.length : NaN;
  const rateRatio = completed ? big.rate / freeRate : NaN;
  const heapRatio = completed && !small.failed ? big.heapKept / small.heapKept : NaN;
  saveResult('memory', {
    heapMb: HEAP,
    small,
    free,
    big,
    freeAfter,
    freeRate,
    completed,
    rateRatio,
    heapRatio,
  });
  const ok = completed && rateRatio >= GOAL_RATE && heapRatio <= GOAL_HEAP;
  headline(
    'memory',
    `${BIG} in ${HEAP} MB of heap ${completed ? 'completed' : `DID NOT complete (${big.failed.split('\n')[0].slice(0, 80)})`}, pushes/s ${round(rateRatio, 3)} of unlimited${FREE !== BIG ? ` (${FREE})` : ''} (${round(big.rate ?? NaN, 0)} ÷ ${frees.map((r) => round(r.rate, 0)).join(' and ')}/s); heap kept ${BIG}/${SMALL} ${round(heapRatio, 3)}; ` +
      `peak RSS ${completed ? round(big.peak / MB, 0) : '?'} MB; mark-compacts ${completed ? big.gc.markCompacts : '?'} against ${frees.length ? frees.map((r) => r.gc.markCompacts).join(', ') : '?'} unlimited (load ${completed ? loadText(big.loadAfter) : loadText()})`,
    `completes, >= ${GOAL_RATE}, <= ${GOAL_HEAP}`,
    ok
  );
});
