/**
 * npm run bench:latency [-- --count 10000 --slowcount 4000 --fastcount 10000 --barecount 3000 --concurrency 8 --latency 50 --slow 200]
 *
 * What a user with a real remote meets: the remote takes LATENCY ms to answer every request
 * (the emulator's latency fault on every request), the plugin has no rate limit to speak of
 * (1e6 requests/s) and CONCURRENCY requests in flight. The best any client can do is then
 * CONCURRENCY ÷ round trip pushes/s (8 ÷ 50 ms = 160/s). Headline: achieved ÷ that ideal, with
 * achieved = COUNT pinpoints ÷ (resync() called -> last POST answered on the emulator).
 * Also at SLOW ms (SLOWCOUNT pinpoints: the ratio is a steady state, 10,000 at 200 ms would
 * take four minutes). And the Strapi process's CPU ms per push (process.cpuUsage over the run;
 * its main thread's share apart, the rest being V8's helper threads and libuv's),
 * the goal's figure being the one at LATENCY ms; a last run with no latency added (FASTCOUNT
 * pinpoints) shows it for a resync as fast as the loopback goes. The garbage collections of the
 * resync are counted next to it (bench/lib/gc.js).
 * After each run, a bare keep-alive client (node:http, in this process) replays BARECOUNT of the
 * same POST bodies at the same concurrency against the same emulator: the emulator's own time and
 * the client's keep it under the ideal too, and pushes/s ÷ that client is what the plugin itself
 * costs. Its CPU per POST is the floor of the Strapi process's CPU per push: what node:http alone
 * spends on a call at that latency. The table also gives the mean time the emulator held a POST and
 * how many it held at once (CONCURRENCY at best).
 *
 * Each latency gets a fresh emulator and a fresh playground (SQLite in WAL mode, synchronous=NORMAL).
 * BENCH_PROF=<dir>: a CPU profile of the Strapi child during each resync, into <dir> (bench/lib/profile.js).
 * Processes: this one, the emulator, Strapi. 127.0.0.1 only.
 */
const { headline } = require('./lib/headline');
const { ensureBuilt, round, table, saveResult, runMain, arg, usageError } = require('./lib/common');
const { startEmulatorProcess } = require('./lib/emulator');
const {
  dbLabel,
  journalArg,
  useJournal,
  timedResync,
  countQueries,
  queryCounts,
} = require('./lib/resync');
const { loadNow, loadText } = require('./lib/load');
const { startProfile, stopProfile } = require('./lib/profile');
const { startGcWatch, stopGcWatch } = require('./lib/gc');
const { startChildApp } = require('../tests/helpers/node')('child-app');
const { replayOnEmulator } = require('./lib/bare-client');
const { laneGaps } = require('./lib/lanes');

const COUNT = arg('count', 10_000);
const COUNT_SLOW = arg('slowcount', 4_000);
const CONCURRENCY = arg('concurrency', 8);
const LATENCY = arg('latency', 50);
const SLOW = arg('slow', 200);
/** pinpoints of the run with no latency added: the CPU per push of a resync as fast as it goes, for comparison */
const COUNT_FAST = arg('fastcount', 10_000);
/**
 * POSTs a bare client replays with the same bodies against the same emulator after each run: what
 * the remote and the loopback allow at all (the ideal leaves out the emulator's own time and the
 * client's), so what is left between the two ratios is the plugin's.
 */
const COUNT_BARE = arg('barecount', 3_000);
const JOURNAL = journalArg('wal');
if (COUNT < 1 || CONCURRENCY < 1 || LATENCY <= 0)
  usageError(
    '--count and --concurrency must be at least 1 and --latency more than 0: the goals are judged on that run'
  );
const GOAL_RATIO = 0.95;
const GOAL_CPU = 0.4;
/** a figure, or '-' where it has no meaning (no ideal rate without latency) */
const fig = (x, d) => (Number.isFinite(x) ? round(x, d) : '-');

async function measure(count, latencyMs, appDir) {
  const emu = await startEmulatorProcess({
    strict: true,
    requestLogSize: count + 5_000,
    ...(latencyMs > 0 ? { faults: { rules: [{ kind: 'latency', latencyMs }] } } : {}),
  });
  try {
    const app = await startChildApp({
      appDir,
      emulator: emu,
      patch: {
        config: {
          syncEnabled: false,
          rateLimit: { requestsPerSecond: 1_000_000, concurrency: CONCURRENCY },
        },
      },
    });
    try {
      await useJournal(app, JOURNAL);
      const db = await dbLabel(app);
      const seeded = await app.call('seedPlaces', { count, prefix: 'Latency' });
      process.stderr.write(
        `> ${latencyMs} ms: seeded ${count} places in ${seeded.ms} ms; resync on ${db}\n`
      );
      const loadBefore = loadNow();
      // BENCH_SQL=1: count the statements (their listener costs CPU of its own, so not by default);
      // BENCH_SQL=ms: the same, the slowest first (a statement that waited for the one connection
      // of SQLite counts its wait too).
      if (process.env.BENCH_SQL) await countQueries(app);
      await app.run(async (_s, _a, { require }) => {
        global.__benchLoopDelay = require('node:perf_hooks').monitorEventLoopDelay({
          resolution: 5,
        });
        global.__benchLoopDelay.enable();
        return true;
      });
      // Every 5 ms (when the event loop lets the timer run): were the remote's lanes short of work,
      // with no push waiting for one (starved), and how many rows did the worker hold?
      await app.run(async (strapi, c) => {
        const plugin = strapi.plugin('location-content');
        const s = (global.__benchLanes = { samples: 0, starved: 0, inFlight: 0, waiting: 0 });
        global.__benchLanesTimer = setInterval(() => {
          const lim = plugin.service('settings').limiter().stats();
          if (!lim.pending && !lim.waiting) return; // before the first call, after the last
          s.samples += 1;
          if (lim.pending < c && !lim.waiting) s.starved += 1;
          s.waiting += lim.waiting;
          s.inFlight += plugin.service('worker').stats().inFlight;
        }, 5);
        return true;
      }, CONCURRENCY);
      await startProfile(app);
      await startGcWatch(app);
      const t0 = Date.now();
      const run = await timedResync(app, { timeoutMs: 1_800_000 });
      const gc = await stopGcWatch(app);
      await stopProfile(app, `latency-${latencyMs}ms-${count}`);
      const loadAfter = loadNow();
      const feed = await app.run(async () => {
        clearInterval(global.__benchLanesTimer);
        const s = global.__benchLanes;
        const n = Math.max(1, s.samples);
        return { starved: s.starved / n, waiting: s.waiting / n, inFlight: s.inFlight / n };
      });
      // Answers that arrive while the event loop is busy wait: the delay is part of every round trip.
      const loopDelay = await app.run(async () => {
        const h = global.__benchLoopDelay;
        h.disable();
        return { p50: h.percentile(50) / 1e6, p99: h.percentile(99) / 1e6, max: h.max / 1e6 };
      });
      const sql = process.env.BENCH_SQL ? await queryCounts(app) : null;
      const replay = COUNT_BARE > 0;
      const posts = (
        await emu.call('requests', {
          filter: { method: 'POST', pathPrefix: '/v3.0/pinpoints' },
          bodies: replay,
        })
      ).filter((r) => r.status === 201);
      const summary = await emu.call('summary');
      if (summary.pinpoints !== count || posts.length !== count || summary.duplicateNames) {
        throw new Error(
          `expected ${count} pinpoints, the emulator holds ${summary.pinpoints} (${posts.length} POST 201, ${summary.duplicateNames} duplicate names)`
        );
      }
      const calls = await emu.call('calls');
      const bare = replay
        ? await replayOnEmulator(emu, {
            bodies: posts.slice(0, COUNT_BARE).map((r) => r.body),
            concurrency: CONCURRENCY,
          })
        : null;
      const lastAnswer = Math.max(...posts.map((r) => Date.parse(r.time) + r.durationMs));
      const firstPost = Math.min(...posts.map((r) => Date.parse(r.time)));
      const ideal = latencyMs > 0 ? (CONCURRENCY * 1000) / latencyMs : NaN;
      const rate = (count * 1000) / (lastAnswer - t0);
      const windowRate = (count * 1000) / (lastAnswer - firstPost);
      // How many POSTs the remote held at once on average, and how long each: what is missing to
      // CONCURRENCY is time between an answer and the next request, spent in the Strapi process.
      const remoteMs = posts.reduce((n, r) => n + r.durationMs, 0) / posts.length;
      const atRemote = (remoteMs * count) / (lastAnswer - firstPost);
      const lanes = laneGaps(posts, CONCURRENCY, t0);
      process.stderr.write(
        `> ${latencyMs} ms: lanes short of a push to send in ${round(feed.starved * 100, 1)}% of the samples; on average ${round(feed.waiting, 1)} calls waiting for a lane, ${round(feed.inFlight, 1)} rows held by the worker\n`
      );
      process.stderr.write(
        `> ${latencyMs} ms: lane idle between an answer and the next POST: mean ${round(lanes.meanGapMs, 2)} ms, p50/p90/p99/max ${[lanes.p50, lanes.p90, lanes.p99, lanes.max].map((x) => round(x, 1)).join('/')} ms, ${round(lanes.over5 * 100, 1)}% of it in gaps over 5 ms; lane time lost to the start ${round(lanes.lost.start * 100, 2)}%, between calls ${round(lanes.lost.between * 100, 2)}%, the tail ${round(lanes.lost.tail * 100, 2)}%\n`
      );
      return {
        count,
        latencyMs,
        db,
        ideal,
        rate,
        ratio: rate / ideal,
        windowRate,
        windowRatio: windowRate / ideal,
        remoteMs,
        atRemote,
        lanes,
        feed,
        bareRatio: bare ? bare.perSecond / ideal : NaN,
        ofBare: bare ? rate / bare.perSecond : NaN,
        bareCpuMsPerCall: bare ? bare.cpuMsPerCall : NaN,
        startMs: firstPost - t0,
        wallMs: run.wallMs,
        cpuMsPerPush: run.cpuMs / count,
        mainCpuMsPerPush: run.mainThreadCpuMs === null ? NaN : run.mainThreadCpuMs / count,
        gc,
        apiCalls: calls.total,
        byMethod: calls.byMethod,
        loadBefore,
        loadAfter,
        loopDelay,
        sqlPerPush: sql ? sql.reduce((n, q) => n + q.n, 0) / count : null,
        topSql: sql?.slice(0, 15),
      };
    } finally {
      await app.stop();
    }
  } finally {
    await emu.stop();
  }
}

runMain(async ({ appDir }) => {
  ensureBuilt();
  const runs = [];
  runs.push(await measure(COUNT, LATENCY, await appDir()));
  if (COUNT_SLOW > 0) runs.push(await measure(COUNT_SLOW, SLOW, await appDir()));
  if (COUNT_FAST > 0) runs.push(await measure(COUNT_FAST, 0, await appDir()));
  table([
    [
      `resync, concurrency ${CONCURRENCY}, no rate limit (${runs[0].db})`,
      'ideal /s',
      'pushes/s',
      'ratio',
      'first POST -> last: /s',
      'ratio',
      'to first POST ms',
      'ms at the remote per POST',
      'POSTs at the remote at once',
      'lane idle per POST ms: mean / p50 / p99',
      'lane time lost: start / between / tail %',
      'bare client ÷ ideal',
      'pushes/s ÷ bare client',
      'API calls',
      'Strapi CPU ms/push',
      'of which main thread',
      'bare client CPU ms/POST',
      'scavenges / mark-compacts',
      'event loop delay p50/p99/max ms',
      'load before',
      'load after',
    ],
    ...runs.map((r) => [
      `${r.count} pinpoints, ${r.latencyMs ? `${r.latencyMs} ms per answer` : 'no latency added'}`,
      fig(r.ideal, 1),
      round(r.rate, 1),
      fig(r.ratio, 3),
      round(r.windowRate, 1),
      fig(r.windowRatio, 3),
      Math.round(r.startMs),
      round(r.remoteMs, 2),
      round(r.atRemote, 2),
      `${round(r.lanes.meanGapMs, 2)} / ${round(r.lanes.p50, 1)} / ${round(r.lanes.p99, 1)}`,
      `${round(r.lanes.lost.start * 100, 2)} / ${round(r.lanes.lost.between * 100, 2)} / ${round(r.lanes.lost.tail * 100, 2)}`,
      fig(r.bareRatio, 3),
      fig(r.ofBare, 3),
      r.apiCalls,
      round(r.cpuMsPerPush, 3),
      fig(r.mainCpuMsPerPush, 3),
      fig(r.bareCpuMsPerCall, 3),
      `${r.gc.scavenges} / ${r.gc.markCompacts}`,
      `${round(r.loopDelay.p50, 1)} / ${round(r.loopDelay.p99, 1)} / ${round(r.loopDelay.max, 1)}`,
      loadText(r.loadBefore),
      loadText(r.loadAfter),
    ]),
  ]);
  for (const r of runs.filter((x) => x.topSql)) {
    process.stdout.write(
      `${r.latencyMs} ms: SQL statements per push ${round(r.sqlPerPush, 2)}; the most frequent:\n`
    );
    table([
      ['statement', 'per push', 'ms per push'],
      ...r.topSql.map((q) => [
        q.sql.slice(0, 110),
        round(q.n / r.count, 3),
        round(q.ms / r.count, 3),
      ]),
    ]);
  }
  saveResult('latency', { concurrency: CONCURRENCY, runs });
  const main = runs[0];
  const slow = runs.find((r) => r.latencyMs === SLOW && r !== main);
  const ok =
    main.ratio >= GOAL_RATIO &&
    (!slow || slow.ratio >= GOAL_RATIO) &&
    main.cpuMsPerPush <= GOAL_CPU;
  headline(
    'latency',
    `${round(main.ratio, 3)} of ideal at ${main.latencyMs} ms (a bare client ${fig(main.bareRatio, 3)})${slow ? `, ${round(slow.ratio, 3)} at ${slow.latencyMs} ms` : ''}; Strapi CPU ${round(main.cpuMsPerPush, 2)} ms/push (a bare client ${fig(main.bareCpuMsPerCall, 2)} ms/POST; load ${loadText(main.loadAfter)})`,
    `>= ${GOAL_RATIO}; <= ${GOAL_CPU} ms`,
    ok
  );
});
