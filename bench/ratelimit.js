/**
 * npm run bench:ratelimit [-- --count 5000 --rate 100 --concurrency 4 --sqlite wal|delete|default --db sqlite|postgres|mariadb]
 *
 * Resync of COUNT published places against the emulator limited to RATE requests/s per client
 * (token bucket, burst = RATE), with the plugin's rateLimit.requestsPerSecond = RATE.
 * Figures: achieved writes/s (POSTs answered 201, first to last), 429 answers (all, and after the
 * first pause ended), wall time. Headline: achieved writes/s / RATE.
 *
 * SQLite runs in WAL mode (synchronous=NORMAL) unless --sqlite delete|default: with a rollback
 * journal, under the disk contention of a shared machine, the engine's own ceiling can fall
 * below 100 pushes/s (see bench:throughput), and this bench is about using the remote's
 * allowance, not about the disk.
 */
const { headline } = require('./lib/headline');
const { ensureBuilt, round, table, saveResult, runMain, arg } = require('./lib/common');
const { startEmulatorProcess } = require('./lib/emulator');
const { dbLabel, journalArg, useJournal, timedResync } = require('./lib/resync');
const { startChildApp } = require('../tests/helpers/node')('child-app');
const { startBenchDb } = require('./lib/db');

const COUNT = arg('count', 5_000);
const RATE = arg('rate', 100);
const JOURNAL = journalArg(process.argv.includes('--no-wal') ? undefined : 'wal');

/** Counts of calls by "METHOD path-kind status". */
const others = (calls) => {
  const out = {};
  for (const r of calls) {
    const k = `${r.method} ${r.path.split('?')[0].replace(/\/\d+/g, '/:id')} ${r.status ?? 'reset'}`;
    out[k] = (out[k] ?? 0) + 1;
  }
  return out;
};

runMain(async ({ appDir }) => {
  ensureBuilt();
  const db = await startBenchDb();
  const emu = await startEmulatorProcess({
    strict: true,
    requestLogSize: COUNT * 2 + 5_000,
    rateLimit: { rate: RATE, burst: RATE },
  });
  const app = await startChildApp({
    appDir: await appDir(),
    emulator: emu,
    patch: {
      config: {
        syncEnabled: false,
        rateLimit: { requestsPerSecond: RATE, concurrency: arg('concurrency', 4) },
      },
    },
  });
  try {
    await useJournal(app, JOURNAL);
    const dbName = await dbLabel(app);
    const seeded = await app.call('seedPlaces', { count: COUNT, prefix: 'Rate' });
    process.stderr.write(
      `> seeded ${COUNT} places in ${seeded.ms} ms; resync at ${RATE}/s on ${dbName}\n`
    );
    const run = await timedResync(app, { timeoutMs: Math.max(600_000, (COUNT / RATE) * 3000) });
    const pauses = run.status.rateLimit?.pauses ?? null;
    const problems = app.output
      .join('')
      .split('\n')
      .filter((l) => /error|warn/i.test(l));
    if (problems.length)
      process.stderr.write(
        `> Strapi logged ${problems.length} warning/error lines, e.g.:\n${problems.slice(0, 5).join('\n')}\n`
      );

    const log = await emu.call('requests', { filter: {} });
    const api = log.filter((r) => !r.path.startsWith('/v3.0/oauth2/'));
    const created = api.filter((r) => r.method === 'POST' && r.status === 201);
    const throttled = api.filter((r) => r.status === 429);
    const summary = await emu.call('summary');
    if (summary.pinpoints !== COUNT || created.length !== COUNT)
      throw new Error(
        `expected ${COUNT} pinpoints, got ${summary.pinpoints} (${created.length} POST 201)`
      );
    const first = Date.parse(created[0].time);
    const last = Math.max(...created.map((r) => Date.parse(r.time) + r.durationMs));
    const achieved = ((COUNT - 1) * 1000) / (last - first);
    // The first 429 pauses every call for Retry-After (>= 1 s): count what came after that pause.
    const firstThrottle = throttled.length ? Date.parse(throttled[0].time) : null;
    const after =
      firstThrottle === null
        ? 0
        : throttled.filter((r) => Date.parse(r.time) > firstThrottle + 1000).length;
    // Writes per one-second window, to show how even the pace is.
    const perSecond = new Map();
    for (const r of created) {
      const s = Math.floor((Date.parse(r.time) - first) / 1000);
      perSecond.set(s, (perSecond.get(s) ?? 0) + 1);
    }
    const full = [...perSecond.entries()]
      .filter(([s]) => s < Math.floor((last - first) / 1000))
      .map(([, n]) => n);
    const minSecond = full.length ? Math.min(...full) : NaN;
    const maxSecond = full.length ? Math.max(...full) : NaN;
    const ratio = achieved / RATE;
    table([
      [
        `resync of ${COUNT} pinpoints, emulator limit ${RATE}/s, plugin ${RATE}/s, ${dbName}`,
        'value',
      ],
      ['wall time resync() -> queue idle, s', round(run.wallMs / 1000, 1)],
      ['achieved writes/s (first POST -> last answer)', round(achieved, 2)],
      ['writes in a full second: min / max', `${minSecond} / ${maxSecond}`],
      ['API calls other than the POSTs (not 429)', api.length - created.length - throttled.length],
      [
        '  of which',
        JSON.stringify(
          others(api.filter((r) => !(r.method === 'POST' && r.status === 201) && r.status !== 429))
        ),
      ],
      ['429 answers, all', throttled.length],
      ['429 answers after the first pause', after],
      ['pauses the plugin counted', pauses],
      ['Strapi CPU ms per push', round(run.cpuMs / COUNT, 2)],
    ]);
    saveResult(
      `ratelimit${db.kind === 'sqlite' ? '' : `-${db.kind}`}${JOURNAL === 'delete' ? '-delete' : ''}`,
      {
        count: COUNT,
        rate: RATE,
        db: dbName,
        wallMs: run.wallMs,
        achieved,
        throttled: throttled.length,
        throttledAfterFirstPause: after,
        pauses,
        minSecond,
        maxSecond,
        ratio,
      }
    );
    headline(
      `ratelimit${db.kind === 'sqlite' ? '' : `:${db.kind}`}`,
      `${round(ratio, 3)} of ${RATE} writes/s used, ${after} 429 after the first pause`,
      '>= 0.95, 0',
      ratio >= 0.95 && after === 0
    );
  } finally {
    await app.stop().catch(() => undefined);
    await emu.stop();
    await db.stop();
  }
});
