/**
 * npm run bench:import [-- --small 10000 --big 100000 --heap 160 --rps 10]
 *
 * Import of an account that already has content (issue 32), in a small container. An account of N
 * pinpoints without media (pages of 20 with limit/offset, as the real service pages) is first
 * walked (`sync.inventory()`: the remote's read rate, objects/s, at the plugin's rate limit RPS),
 * then imported (`sync.import()`: drafts of the playground's places) by a Strapi process started
 * with --max-old-space-size=HEAP, once with SMALL and once with BIG pinpoints. Goals: both imports
 * complete, each object once; the heap kept after a full GC at the end, BIG ÷ SMALL, <= 1.1 (an
 * import that keeps something per object shows here). Objects/s of the import against the read rate
 * and peak RSS are printed, not judged.
 *
 * Each run: one emulator process, seeded first, and one Strapi process (node --expose-gc, no walk at
 * linking). SQLite in WAL mode (synchronous=NORMAL). Processes: this one, the emulator, Strapi.
 * 127.0.0.1 only.
 */
const { headline } = require('./lib/headline');
const { ensureBuilt, round, table, saveResult, runMain, arg, until } = require('./lib/common');
const { startEmulatorProcess } = require('./lib/emulator');
const { useJournal } = require('./lib/resync');
const { loadNow, loadText } = require('./lib/load');
const { startChildApp } = require('../tests/helpers/node')('child-app');

const SMALL = arg('small', 10_000);
const BIG = arg('big', 100_000);
const HEAP = arg('heap', 160);
const RPS = arg('rps', 10);
const MB = 2 ** 20;
const GOAL_HEAP = 1.1;
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
          description: `<p>Place <strong>${from + k}</strong></p>`,
          latitude: 30 + (from + k) / 1_000_000,
          longitude: 2,
          tags: ['bench'],
        })),
      });
    const app = await startChildApp({
      appDir,
      emulator: emu,
      execArgv: ['--expose-gc', `--max-old-space-size=${HEAP}`],
      patch: {
        config: { walkOnLink: false, rateLimit: { requestsPerSecond: RPS, concurrency: 4 } },
      },
    });
    try {
      await useJournal(app, 'wal');
      await app.call('gc');
      const baseline = await app.call('rssWatch', { everyMs: 20 });
      const heapAtStart = (await app.call('memory')).heapUsed;
      const loadBefore = loadNow();
      const w0 = Date.now();
      await app.run(async (_strapi, _a, { sync }) => sync().inventory(), {}, 3_600_000);
      const walkMs = Date.now() - w0;
      const t0 = Date.now();
      await app.run(
        async (_strapi, _a, { sync }) => sync().import({ locale: 'en' }),
        {},
        3_600_000
      );
      let told = Date.now();
      const job = await until(
        async () => {
          const asked = Date.now();
          const p = await app.run(
            async (_strapi, _a, { sync }) => sync().importProgress(),
            {},
            3_600_000
          );
          if (Date.now() - asked > 10_000)
            process.stderr.write(
              `  a progress read took ${round((Date.now() - asked) / 1000, 0)} s\n`
            );
          if (Date.now() - told > 30_000) {
            told = Date.now();
            const m = await app.call('memory');
            process.stderr.write(
              `  ${p?.phase ?? '-'} ${p?.counts.done ?? 0}/${count} imported, heap ${round(m.heapUsed / MB, 0)} MB, rss ${round(m.rss / MB, 0)} MB, ${round((Date.now() - t0) / 1000, 0)} s\n`
            );
          }
          return p && p.state !== 'running' ? p : null;
        },
        'the import to finish',
        6 * 3_600_000,
        1000
      );
      const ms = Date.now() - t0;
      const entries = await app.run(async (strapi) =>
        strapi.db.query('api::place.place').count({})
      );
      const after = await app.call('gc');
      const mem = await app.call('memory');
      return {
        count,
        completed: job.state === 'done' && job.counts.done === count && entries === count,
        imported: job.counts.done,
        entries,
        walkObjectsPerS: count / (walkMs / 1000),
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
    process.stderr.write(`> importing ${count} pinpoints with --max-old-space-size=${HEAP}...\n`);
    runs.push(await measure(count, await appDir()));
  }
  const [small, big] = runs;
  table([
    [
      `import, --max-old-space-size=${HEAP}, ${RPS} requests/s`,
      'completed',
      'entries',
      'read rate objects/s',
      'import wall s',
      'import objects/s',
      'import ÷ read',
      'peak RSS MB',
      'heap at start MB',
      'heap kept after GC MB',
      'load',
    ],
    ...runs.map((r) => [
      `${r.count} pinpoints`,
      r.completed ? 'yes' : 'NO',
      r.entries,
      round(r.walkObjectsPerS, 0),
      round(r.ms / 1000, 1),
      round(r.objectsPerS, 1),
      round(r.objectsPerS / r.walkObjectsPerS, 2),
      round(r.peakRssMb, 0),
      round(r.heapAtStartMb, 1),
      round(r.heapKeptMb, 1),
      r.load,
    ]),
  ]);
  const heapRatio = big.heapKeptMb / small.heapKeptMb;
  const completed = small.completed && big.completed;
  saveResult('import', { heapMb: HEAP, rps: RPS, runs, heapRatio, load: loadText() });
  headline(
    'import',
    `${BIG} pinpoints imported in ${HEAP} MB of heap ${completed ? 'completed' : 'did NOT complete'}; heap kept ${BIG}/${SMALL} ${round(heapRatio, 3)}; ${round(big.objectsPerS, 1)} objects/s against a read rate of ${round(big.walkObjectsPerS, 0)}`,
    `completes, heap kept <= ${GOAL_HEAP}`,
    completed && heapRatio <= GOAL_HEAP
  );
});
