/**
 * npm run bench:save [-- --ops 1000 --placeops 1000 --warmup 100 --sqlite wal|delete --db sqlite|postgres|mariadb]
 *
 * What the plugin costs an editor's save. The same loops run in Strapi processes with the
 * plugin loaded and syncing (its default coalescing: 300 ms settle, 5 s max wait) and with the
 * plugin not loaded at all (`'location-content': { enabled: false }`). Both Strapi processes
 * run side by side and batches of 10 saves alternate between them, so that drift of a shared
 * machine hits both sides alike.
 *  - Icon (no draft & publish, mapped to categories): documents().update()
 *  - Place (draft & publish, localized, mapped to pinpoints): documents().update() then publish()
 * Figures: median and p95 per operation and side: OPS Icon updates and PLACEOPS Place update +
 * publish (OPS by default) per side.
 * Headline: median latency of the Icon update, plugin on / plugin off.
 *
 * What moves this figure (an Icon update is ~1.3 ms, 8 statements): a middleware that awaits an
 * outbox write costs ~0.5 ms (mostly waiting for the connection the save's transaction is still
 * giving back), and a middleware that merely awaits `next()` costs ~0.07 ms by itself: each extra
 * microtask turn lets Strapi's own after-save work (the entry.update event) run before the
 * caller resumes. BENCH_VERBOSE=1 lists the statements of the plugin side by shape.
 */
const { headline } = require('./lib/headline');
const {
  ensureBuilt,
  median,
  percentile,
  round,
  table,
  saveResult,
  runMain,
  arg,
} = require('./lib/common');
const { startEmulatorProcess } = require('./lib/emulator');
const { dbLabel, journalArg, useJournal, countQueries, queryCounts } = require('./lib/resync');
const { startChildApp } = require('../tests/helpers/node')('child-app');
const { startBenchDb } = require('./lib/db');

const OPS = arg('ops', 1000);
/** Place saves per side: printed, not judged, and 5-7 times an Icon save's time on a database server */
const PLACE_OPS = arg('placeops', OPS);
const WARMUP = arg('warmup', 100);

/** Inside a Strapi child: creates the entries the loops save. */
async function setup(strapi) {
  const icon = await strapi.documents('api::icon.icon').create({ data: { label: 'Bench icon' } });
  const place = await strapi.documents('api::place.place').create({
    data: { title: 'Bench place', address: '1 Bench St', geo: { lat: 45.76, lng: 4.83 } },
  });
  await strapi.documents('api::place.place').publish({ documentId: place.documentId });
  global.__bench = { icon: icon.documentId, place: place.documentId };
  return global.__bench;
}

/** Inside a Strapi child: `n` timed saves of one kind, from number `from`. */
async function batch(strapi, { kind, from, n }) {
  const { icon, place } = global.__bench;
  const out = [];
  for (let i = from; i < from + n; i++) {
    const t = performance.now();
    if (kind === 'icon') {
      await strapi
        .documents('api::icon.icon')
        .update({ documentId: icon, data: { label: `Bench icon ${i}` } });
    } else {
      await strapi
        .documents('api::place.place')
        .update({ documentId: place, data: { title: `Bench place ${i}` } });
      await strapi.documents('api::place.place').publish({ documentId: place });
    }
    out.push(performance.now() - t);
    // Saves are separate requests in real life: the event loop turns between them, and the
    // worker runs there (a tight loop on SQLite would starve it: every query is synchronous).
    await new Promise((r) => setImmediate(r));
  }
  return out;
}

const BATCH = 10;
/** --sqlite wal|delete: force both sides' SQLite journal; default: as the playground configures it. */
const JOURNAL = journalArg(process.argv.includes('--wal') ? 'wal' : undefined);

runMain(async ({ appDir }) => {
  ensureBuilt();
  const db = await startBenchDb();
  const emu = await startEmulatorProcess({ strict: true });
  const samples = { on: { icon: [], place: [] }, off: { icon: [], place: [] } };
  const apps = {};
  let pushes = 0;
  const sql = { icon: {}, place: {} };
  let dbName = '';
  const extraSql = {};
  try {
    // Both processes live side by side; batches alternate between them (off, on, on, off, ...), so
    // that whatever else the machine does hits both sides alike.
    for (const side of ['off', 'on']) {
      apps[side] = await startChildApp({
        appDir: await appDir(),
        emulator: emu,
        patch:
          side === 'on'
            ? { config: { rateLimit: { requestsPerSecond: 100, concurrency: 4 } } }
            : { enabled: false },
      });
      const loaded = await apps[side].run(async (strapi) =>
        Boolean(strapi.plugin('location-content'))
      );
      if (loaded !== (side === 'on'))
        throw new Error(`plugin loaded = ${loaded} on the "${side}" side`);
      await useJournal(apps[side], JOURNAL);
      dbName = await dbLabel(apps[side]);
      await apps[side].run(setup);
    }
    for (const kind of ['icon', 'place']) {
      const warm = kind === 'icon' ? WARMUP : Math.ceil(WARMUP / 4);
      for (const side of ['off', 'on']) await apps[side].run(batch, { kind, from: -warm, n: warm });
      for (const side of ['off', 'on']) await countQueries(apps[side]);
      const ops = kind === 'icon' ? OPS : PLACE_OPS;
      for (let from = 0, k = 0; from < ops; from += BATCH, k++) {
        const order = k % 2 ? ['on', 'off'] : ['off', 'on'];
        for (const side of order)
          samples[side][kind].push(
            ...(await apps[side].run(batch, { kind, from, n: Math.min(BATCH, ops - from) }))
          );
      }
      for (const side of ['off', 'on']) {
        const q = await queryCounts(apps[side]);
        sql[kind][side] = q.reduce((n, x) => n + x.n, 0) / ops;
        if (side === 'on') extraSql[kind] = q;
      }
      process.stderr.write(`> ${kind}: done\n`);
    }
    await apps.on.call('idle', { timeoutMs: 60_000 });
    pushes = (await emu.call('calls')).writes;
  } finally {
    for (const a of Object.values(apps)) await a.stop();
    await emu.stop();
    await db.stop();
  }
  samples.on.icons = samples.on.icon;
  samples.off.icons = samples.off.icon;
  samples.on.places = samples.on.place;
  samples.off.places = samples.off.place;
  const fig = (v) => ({ median: median(v), p95: percentile(v, 95) });
  const r = {
    icon: { off: fig(samples.off.icons), on: fig(samples.on.icons) },
    place: { off: fig(samples.off.places), on: fig(samples.on.places) },
  };
  const ms = (x) => round(x, 2);
  table([
    [
      `operation (batches of ${BATCH} alternating, ${dbName})`,
      'off median ms',
      'on median ms',
      'ratio',
      'off p95 ms',
      'on p95 ms',
      'p95 ratio',
      'SQL/save off',
      'SQL/save on',
    ],
    [
      `Icon update (no D&P), ${OPS} per side`,
      ms(r.icon.off.median),
      ms(r.icon.on.median),
      round(r.icon.on.median / r.icon.off.median, 3),
      ms(r.icon.off.p95),
      ms(r.icon.on.p95),
      round(r.icon.on.p95 / r.icon.off.p95, 3),
      round(sql.icon.off, 1),
      round(sql.icon.on, 1),
    ],
    [
      `Place update + publish (D&P, i18n), ${PLACE_OPS} per side`,
      ms(r.place.off.median),
      ms(r.place.on.median),
      round(r.place.on.median / r.place.off.median, 3),
      ms(r.place.off.p95),
      ms(r.place.on.p95),
      round(r.place.on.p95 / r.place.off.p95, 3),
      round(sql.place.off, 1),
      round(sql.place.on, 1),
    ],
  ]);
  if (process.env.BENCH_VERBOSE)
    for (const [k, q] of Object.entries(extraSql)) console.log(k, q.slice(0, 30));
  process.stdout.write(
    `remote writes while the plugin was on: ${pushes} for ${OPS + PLACE_OPS + WARMUP + Math.ceil(WARMUP / 4)} saves of 2 entries (coalesced)\n`
  );
  const ratio = r.icon.on.median / r.icon.off.median;
  saveResult(`save${db.kind === 'sqlite' ? '' : `-${db.kind}`}${JOURNAL ? `-${JOURNAL}` : ''}`, {
    ops: OPS,
    placeOps: PLACE_OPS,
    warmup: WARMUP,
    db: dbName,
    sqlPerSave: sql,
    figures: r,
    pushes,
    ratio,
    placeRatio: r.place.on.median / r.place.off.median,
  });
  headline(
    `save${db.kind === 'sqlite' ? '' : `:${db.kind}`}`,
    `${round(ratio, 3)} Icon update median, plugin on ÷ off`,
    '<= 1.05',
    ratio <= 1.05
  );
});
