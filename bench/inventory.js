/**
 * npm run bench:inventory [-- --small 10000 --big 100000 --heap 160]
 *
 * The inventory walk of a big account in a small container (issue 12: pages stream into the table,
 * flat memory at 100,000 objects). An account of N pinpoints (pages of 20 with limit/offset, as the
 * real service pages; the emulator has no rate limit, the plugin 1,000,000 requests/s) is walked
 * by `sync.inventory()` in a Strapi process started with --max-old-space-size=HEAP, once with SMALL
 * and once with BIG pinpoints. Goals: both complete and hold every object; the heap kept after a
 * full GC at the end, BIG ÷ SMALL, <= 1.1 (a walk that keeps something per object shows here).
 * Peak RSS and objects/s are printed, not judged.
 *
 * Each run: one emulator process, seeded first, and one Strapi process (node --expose-gc, no walk
 * at linking: the bench starts the walk itself). SQLite in WAL mode (synchronous=NORMAL).
 * Processes: this one, the emulator, Strapi. 127.0.0.1 only.
 */
const { headline } = require('./lib/headline');
const { ensureBuilt, round, table, saveResult, runMain, arg } = require('./lib/common');
const { startEmulatorProcess } = require('./lib/emulator');
const { useJournal } = require('./lib/resync');
const { loadNow, loadText } = require('./lib/load');
const { startChildApp } = require('../tests/helpers/node')('child-app');

const SMALL = arg('small', 10_000);
const BIG = arg('big', 100_000);
const HEAP = arg('heap', 160);
const MB = 2 ** 20;
const GOAL_HEAP = 1.1;
/** seeded in parts, so that no one message to the emulator process is huge */
const SEED_CHUNK = 20_000;

async function measure(count, appDir) {
  const emu = await startEmulatorProcess({
    strict: true,
    pageSize: 20,
    pagination: 'offset',
    requestLogSize: 1_000,
  });
  try {
    for (let from = 0; from < count; from += SEED_CHUNK)
      await emu.call('seed', {
        kind: 'pinpoints',
        bodies: Array.from({ length: Math.min(SEED_CHUNK, count - from) }, (_, k) => ({
          name: `Existing ${from + k}`,
          latitude: 30 + (from + k) / 1_000_000,
          longitude: 2,
        })),
      });
    const app = await startChildApp({
      appDir,
      emulator: emu,
      execArgv: ['--expose-gc', `--max-old-space-size=${HEAP}`],
      patch: {
        config: {
          walkOnLink: false,
          rateLimit: { requestsPerSecond: 1_000_000, concurrency: 8 },
        },
      },
    });
    try {
      await useJournal(app, 'wal');
      await app.call('gc');
      const baseline = await app.call('rssWatch', { everyMs: 20 });
      const heapAtStart = (await app.call('memory')).heapUsed;
      const loadBefore = loadNow();
      const t0 = Date.now();
      const progress = await app.run(
        async (_strapi, _a, { sync }) => sync().inventory(),
        {},
        3_600_000
      );
      const ms = Date.now() - t0;
      const after = await app.call('gc');
      const mem = await app.call('memory');
      return {
        count,
        completed: progress.state === 'done' && progress.held.pinpoint === count,
        held: progress.held.pinpoint,
        ms,
        objectsPerS: count / (ms / 1000),
        baselineRssMb: baseline / MB,
        peakRssMb: mem.rssPeak / MB,
        heapAtStartMb: heapAtStart / MB,
        heapKeptMb: after.heapUsed / MB,
        load: `${loadText(loadBefore)} → ${loadText()}`,
      };
    } finally {
      await app.stop().catch(() => app.kill());
    }
  } finally {
    await emu.stop();
  }
}

runMain(async ({ appDir }) => {
  ensureBuilt();
  const runs = [];
  for (const count of [SMALL, BIG]) {
    process.stderr.write(`> walking ${count} pinpoints with --max-old-space-size=${HEAP}...\n`);
    runs.push(await measure(count, await appDir()));
  }
  const [small, big] = runs;
  table([
    [
      `inventory walk, --max-old-space-size=${HEAP}`,
      'completed',
      'held',
      'wall s',
      'objects/s',
      'baseline RSS MB',
      'peak RSS MB',
      'heap at start MB',
      'heap kept after GC MB',
      'load',
    ],
    ...runs.map((r) => [
      `${r.count} pinpoints`,
      r.completed ? 'yes' : 'NO',
      r.held,
      round(r.ms / 1000, 1),
      round(r.objectsPerS, 0),
      round(r.baselineRssMb, 0),
      round(r.peakRssMb, 0),
      round(r.heapAtStartMb, 1),
      round(r.heapKeptMb, 1),
      r.load,
    ]),
  ]);
  const heapRatio = big.heapKeptMb / small.heapKeptMb;
  const completed = small.completed && big.completed;
  saveResult('inventory', { heapMb: HEAP, runs, heapRatio, load: loadText() });
  headline(
    'inventory',
    `${BIG} objects walked in ${HEAP} MB of heap ${completed ? 'completed' : 'did NOT complete'}; heap kept ${BIG}/${SMALL} ${round(heapRatio, 3)}; peak RSS ${round(big.peakRssMb, 0)} MB; ${round(big.objectsPerS, 0)} objects/s`,
    `completes, heap kept <= ${GOAL_HEAP}`,
    completed && heapRatio <= GOAL_HEAP
  );
});
