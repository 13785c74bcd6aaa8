/**
 * npm run bench:throughput [-- --count 10000 --concurrency 8 --sqlite wal|delete | --pg]
 *
 * Resync of COUNT published places (pinpoints) with no rate limit to speak of
 * (requestsPerSecond 1e6), against the emulator in its own process. Then a bare keep-alive HTTP
 * client posts the very same payloads (taken from the emulator's request log) with the same
 * concurrency. Headline: plugin pushes/s, ÷ bare client posts/s, and Strapi CPU ms per push: a reference,
 * no goal (bound by the machine's two cores, not by the plugin; bench:latency holds the goal).
 *
 * --sqlite wal|delete: force SQLite's journal (wal = WAL + synchronous=NORMAL, no fsync per
 * commit; delete = rollback journal + synchronous=FULL, an fsync per commit; --wal = --sqlite wal).
 * --pg: a private PostgreSQL cluster (fsync off) instead of SQLite.
 * Default: the database as the playground configures it (the table says which).
 * Processes: this one (orchestrator + bare client), the emulator, Strapi. 127.0.0.1 only.
 */
const { headline } = require('./lib/headline');
const { ensureBuilt, round, table, saveResult, runMain, arg } = require('./lib/common');
const { startEmulatorProcess } = require('./lib/emulator');
const { replayOnEmulator } = require('./lib/bare-client');
const {
  dbLabel,
  journalArg,
  useJournal,
  countQueries,
  queryCounts,
  timedResync,
} = require('./lib/resync');
const { startChildApp } = require('../tests/helpers/node')('child-app');
const { ensurePostgres, startCluster } = require('../tests/helpers/node')('postgres');

const COUNT = arg('count', 10_000);
const CONCURRENCY = arg('concurrency', 8);
const JOURNAL = journalArg(process.argv.includes('--wal') ? 'wal' : undefined);
/** --pg: Strapi on a private PostgreSQL cluster instead of SQLite (tests/helpers/postgres.ts). */
const PG = process.argv.includes('--pg') || process.env.BENCH_PG === '1';

runMain(async ({ appDir }) => {
  ensureBuilt();
  let pg;
  if (PG) {
    const found = ensurePostgres();
    if (!found.bin) throw new Error(found.reason);
    pg = await startCluster(found.bin);
  }
  const emu = await startEmulatorProcess({ strict: true, requestLogSize: COUNT + 5_000 });
  const app = await startChildApp({
    appDir: await appDir(),
    emulator: emu,
    env: pg ? pg.env : {},
    patch: {
      config: {
        syncEnabled: false,
        rateLimit: { requestsPerSecond: 1_000_000, concurrency: CONCURRENCY },
      },
    },
    execArgv: process.env.BENCH_PROF
      ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROF}`]
      : [],
  });
  try {
    if (!PG) await useJournal(app, JOURNAL);
    const dbName = await dbLabel(app);
    const seeded = await app.call('seedPlaces', { count: COUNT, prefix: 'Throughput' });
    process.stderr.write(`> seeded ${COUNT} places in ${seeded.ms} ms; resync on ${dbName}\n`);
    await countQueries(app);
    const run = await timedResync(app);
    const queries = await queryCounts(app);
    const totalQueries = queries.reduce((n, q) => n + q.n, 0);

    const log = await emu.call('requests', {
      filter: { method: 'POST', pathPrefix: '/v3.0/pinpoints' },
      bodies: true,
    });
    const created = log.filter((r) => r.status === 201);
    const summary = await emu.call('summary');
    if (summary.pinpoints !== COUNT || created.length !== COUNT) {
      throw new Error(
        `expected ${COUNT} pinpoints, the emulator holds ${summary.pinpoints} (${created.length} POST 201)`
      );
    }
    const first = Date.parse(created[0].time);
    const last = Math.max(...created.map((r) => Date.parse(r.time) + r.durationMs));
    const windowMs = last - first;
    const bodies = created.map((r) => r.body);
    await app.stop();

    // The same payloads, the same concurrency, nothing else.
    const bare = await replayOnEmulator(emu, { bodies, concurrency: CONCURRENCY });

    process.stdout.write(
      `SQL statements per push: ${round(totalQueries / COUNT, 1)}; the most frequent:\n`
    );
    table([
      ['statement', 'per push', 'ms per push'],
      ...queries
        .slice(0, 14)
        .map((q) => [q.sql.slice(0, 110), round(q.n / COUNT, 2), round(q.ms / COUNT, 3)]),
    ]);
    process.stdout.write(
      `SQL time per push: ${round(queries.reduce((t, q) => t + q.ms, 0) / COUNT, 3)} ms\n`
    );
    process.stdout.write('\n');

    const pluginRate = (COUNT * 1000) / run.wallMs;
    const pluginWindowRate = (COUNT * 1000) / windowMs;
    const ratio = pluginRate / bare.perSecond;
    table([
      [
        `run (${COUNT} pinpoints, concurrency ${CONCURRENCY}, ${dbName})`,
        'ms',
        'pushes/s',
        'Strapi CPU ms/push',
      ],
      [
        'plugin resync: resync() -> queue idle',
        Math.round(run.wallMs),
        round(pluginRate, 1),
        round(run.cpuMs / COUNT, 2),
      ],
      [
        'plugin resync: first POST -> last answer',
        Math.round(windowMs),
        round(pluginWindowRate, 1),
        '',
      ],
      [
        'bare keep-alive HTTP client, same bodies',
        Math.round(bare.ms),
        round(bare.perSecond, 1),
        '',
      ],
    ]);
    saveResult(`throughput${PG ? '-pg' : JOURNAL ? `-${JOURNAL}` : ''}`, {
      count: COUNT,
      concurrency: CONCURRENCY,
      db: dbName,
      wallMs: run.wallMs,
      windowMs,
      pluginRate,
      pluginWindowRate,
      bareRate: bare.perSecond,
      cpuMsPerPush: run.cpuMs / COUNT,
      sqlPerPush: totalQueries / COUNT,
      topSql: queries.slice(0, 15),
      ratio,
    });
    // Bound by two shared cores on loopback, this measured the machine more than the plugin: bench:latency holds the goal now.
    headline(
      'throughput',
      `${round(pluginRate, 0)} pushes/s unlimited on loopback, ${round(ratio, 3)} of a bare client; Strapi CPU ${round(run.cpuMs / COUNT, 2)} ms/push`,
      null,
      null
    );
  } finally {
    await app.stop().catch(() => undefined);
    await emu.stop();
    await pg?.stop();
  }
});
