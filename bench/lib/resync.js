/** Seeding and timing a resync in a Strapi child (tests/helpers/child-app.ts). */
const { until, choiceArg } = require('./common');

/**
 * Sets the SQLite journal of a child (its one connection keeps it): 'wal' = WAL + synchronous=NORMAL
 * (commits do not wait for fsync), 'delete' = rollback journal + synchronous=FULL (SQLite's
 * default: an fsync per commit). No-op on PostgreSQL or without a mode.
 */
const useJournal = (app, mode) =>
  !mode
    ? Promise.resolve(null)
    : app.run(async (strapi, m) => {
        const k = strapi.db.connection;
        if (k.client.config.client !== 'sqlite' && k.client.config.client !== 'better-sqlite3')
          return null;
        await k.raw(`PRAGMA journal_mode = ${m === 'wal' ? 'WAL' : 'DELETE'}`);
        await k.raw(`PRAGMA synchronous = ${m === 'wal' ? 'NORMAL' : 'FULL'}`);
        return m;
      }, mode);
const useWal = (app) => useJournal(app, 'wal');

/** --sqlite wal|delete from the command line (or BENCH_SQLITE), else `fallback`. */
const journalArg = (fallback) => {
  const v = choiceArg('sqlite', ['wal', 'delete', 'default'], fallback);
  return v === 'default' ? undefined : v;
};

/** What the child's database is: 'PostgreSQL', or 'SQLite <journal mode>, synchronous=<n>'. */
const dbLabel = (app) =>
  app.run(async (strapi) => {
    const k = strapi.db.connection;
    if (k.client.config.client !== 'sqlite' && k.client.config.client !== 'better-sqlite3') {
      if (!/^mysql/.test(k.client.config.client)) return 'PostgreSQL';
      const [[{ v }]] = await k.raw('SELECT VERSION() AS v');
      return /mariadb/i.test(v) ? `MariaDB ${v.split('-')[0]}` : `MySQL ${v}`;
    }
    const [{ journal_mode: mode }] = await k.raw('PRAGMA journal_mode');
    const [{ synchronous }] = await k.raw('PRAGMA synchronous');
    return `SQLite ${mode.toUpperCase()} synchronous=${['OFF', 'NORMAL', 'FULL', 'EXTRA'][synchronous] ?? synchronous}`;
  });

/** Counts SQL statements from now on (by shape), in the child. */
const countQueries = (app) =>
  app.run(async (strapi) => {
    const counts = (global.__benchQueries = new Map());
    if (!global.__benchQueriesHooked) {
      global.__benchQueriesHooked = true;
      const started = new Map();
      const keyOf = (q) =>
        q.sql
          .replace(/\?(, \?)+/g, '?..')
          .replace(/`/g, '')
          .slice(0, 120);
      strapi.db.connection.on('query', (q) => {
        const key = keyOf(q);
        const m = global.__benchQueries;
        const e = m.get(key) ?? { n: 0, ms: 0 };
        e.n += 1;
        m.set(key, e);
        started.set(q.__knexQueryUid, performance.now());
      });
      // Time from the query's start to its answer (better-sqlite3 runs it synchronously in between).
      const done = (_r, q) => {
        const t = started.get(q.__knexQueryUid);
        if (t === undefined) return;
        started.delete(q.__knexQueryUid);
        const e = global.__benchQueries.get(keyOf(q));
        if (e) e.ms += performance.now() - t;
      };
      strapi.db.connection.on('query-response', done);
      strapi.db.connection.on('query-error', (_e, q) => done(null, q));
    }
    counts.clear();
    return true;
  });

const queryCounts = (app) =>
  app.run(async () =>
    [...(global.__benchQueries ?? new Map())]
      .sort((a, b) => (process.env.BENCH_SQL === 'ms' ? b[1].ms - a[1].ms : b[1].n - a[1].n))
      .map(([sql, e]) => ({ sql, n: e.n, ms: e.ms }))
  );

/** The child's CPU (bench/lib/cpu.js, loaded by the child itself: app.run sends only a function's source). */
const childCpu = (app) =>
  app.run(async (_strapi, file, { require }) => require(file).cpuNow(), require.resolve('./cpu'));

/**
 * Turns sync on (it was seeded with sync off), starts a resync, waits for it to end and the queue
 * to drain. Returns wall ms and the Strapi process's CPU ms.
 */
async function timedResync(app, { timeoutMs = 900_000 } = {}) {
  await app.run(async (strapi) => {
    strapi.config.set('plugin::location-content.syncEnabled', true);
    return true;
  });
  const before = await childCpu(app);
  const t0 = Date.now();
  await app.call('resync');
  const status = await until(
    async () => {
      const s = await app.call('status');
      return s.resync?.state === 'done' || s.resync?.state === 'failed' ? s : null;
    },
    'the resync to finish',
    timeoutMs,
    500
  );
  await app.call('idle', { timeoutMs: 120_000 });
  const wallMs = Date.now() - t0;
  const after = await childCpu(app);
  return {
    wallMs,
    cpuMs: (after.user - before.user + after.system - before.system) / 1000,
    mainThreadCpuMs: after.main === null ? null : after.main - before.main,
    status,
  };
}

module.exports = {
  dbLabel,
  useJournal,
  journalArg,
  useWal,
  countQueries,
  queryCounts,
  timedResync,
};
