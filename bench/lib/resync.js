/** Seeding and timing a resync in a Strapi child (tests/helpers/child-app.js). */
const { until } = require('./common');

/** SQLite in WAL mode with synchronous=NORMAL: commits stop waiting for fsync (the database file keeps the mode). */
const useWal = (app) =>
  app.run(async (strapi) => {
    await strapi.db.connection.raw('PRAGMA journal_mode = WAL');
    await strapi.db.connection.raw('PRAGMA synchronous = NORMAL');
    return (await strapi.db.connection.raw('PRAGMA journal_mode'))[0];
  });

/** Counts SQL statements from now on (by shape), in the child. */
const countQueries = (app) =>
  app.run(async (strapi) => {
    const counts = (global.__benchQueries = new Map());
    if (!global.__benchQueriesHooked) {
      global.__benchQueriesHooked = true;
      strapi.db.connection.on('query', (q) => {
        const key = q.sql.replace(/\?(, \?)+/g, '?..').replace(/`/g, '').slice(0, 120);
        const m = global.__benchQueries;
        m.set(key, (m.get(key) ?? 0) + 1);
      });
    }
    counts.clear();
    return true;
  });

const queryCounts = (app) =>
  app.run(async () => [...(global.__benchQueries ?? new Map())].sort((a, b) => b[1] - a[1]).map(([sql, n]) => ({ sql, n })));

/**
 * Turns sync on (it was seeded with sync off), starts a resync, waits for it to end and the queue
 * to drain. Returns wall ms and the Strapi process's CPU ms.
 */
async function timedResync(app, { timeoutMs = 900_000 } = {}) {
  const before = await app.run(async (strapi) => {
    strapi.config.set('plugin::location-content.syncEnabled', true);
    return process.cpuUsage();
  });
  const t0 = Date.now();
  await app.call('resync');
  const status = await until(
    async () => {
      const s = await app.call('status');
      return s.resync?.state === 'done' || s.resync?.state === 'failed' ? s : null;
    },
    'the resync to finish',
    timeoutMs,
    500,
  );
  await app.call('idle', { timeoutMs: 120_000 });
  const wallMs = Date.now() - t0;
  const after = await app.run(async () => process.cpuUsage());
  return { wallMs, cpuMs: (after.user - before.user + after.system - before.system) / 1000, status };
}

module.exports = { useWal, countQueries, queryCounts, timedResync };
