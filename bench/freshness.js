/**
 * npm run bench:freshness [-- --publishes 200]
 *
 * Time from documents().publish() returning (in the Strapi process) to the emulator having
 * answered the PUT of that pinpoint (arrival time + duration, on the emulator), queue idle
 * before each publish. Both clocks are the machine's wall clock. Three runs of PUBLISHES:
 *  1. lone publishes: each of PUBLISHES synced places edited and published once (headline);
 *  2. one place republished as soon as its previous push is visible (inside the settle window
 *     of the previous change: the engine treats it as a burst and lets it settle);
 *  3. as 2, with coalesce { settleMs: 0, maxWaitMs: 0 }.
 * The plugin's default coalescing otherwise (settle 300 ms, max wait 5 s).
 * Headline: p50 and p95 of the lone publishes.
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
const { startChildApp } = require('../tests/helpers/node')('child-app');

const PUBLISHES = arg('publishes', 200);

runMain(async ({ appDir }) => {
  ensureBuilt();
  const emu = await startEmulatorProcess({ strict: true, requestLogSize: 5_000 });
  const app = await startChildApp({
    appDir: await appDir(),
    emulator: emu,
    patch: { config: { rateLimit: { requestsPerSecond: 100, concurrency: 4 } } },
  });
  const variants = [];
  try {
    const places = await app.run(async (strapi, n) => {
      const ids = [];
      for (let i = 0; i < n; i++) {
        const p = await strapi.documents('api::place.place').create({
          data: {
            title: `Fresh ${i}`,
            address: '1 Main St',
            geo: { lat: 50 + i / 1000, lng: 3 },
          },
        });
        await strapi.documents('api::place.place').publish({ documentId: p.documentId });
        ids.push(p.documentId);
        await new Promise((r) => setImmediate(r));
      }
      return ids;
    }, PUBLISHES);
    await app.call('idle');
    const states = await app.call('states');
    const remoteOf = new Map(states.map((s) => [s.documentId, s.remoteId]));
    // The creates are long past: every place is quiet, outside any settle window.
    await new Promise((r) => setTimeout(r, 500));

    const publishOnce = async (documentId, title) => {
      await app.call('idle');
      await new Promise((r) => setTimeout(r, 20));
      const since = await emu.call('lastSeq');
      const returned = await app.run(
        async (strapi, a) => {
          await strapi
            .documents('api::place.place')
            .update({ documentId: a.documentId, data: { title: a.title } });
          await strapi.documents('api::place.place').publish({ documentId: a.documentId });
          return Date.now();
        },
        { documentId, title }
      );
      const put = await emu.call('waitFor', {
        since,
        method: 'PUT',
        path: `/v3.0/pinpoints/${remoteOf.get(documentId)}`,
        timeoutMs: 30_000,
      });
      return Date.parse(put.time) + put.durationMs - returned;
    };
    const record = (name, latencies) => {
      variants.push({
        name,
        p50: median(latencies),
        p95: percentile(latencies, 95),
        min: Math.min(...latencies),
        max: Math.max(...latencies),
      });
      process.stderr.write(`> ${name}: done\n`);
    };

    const lone = [];
    for (let i = 0; i < PUBLISHES; i++)
      lone.push(await publishOnce(places[i], `Fresh ${i} (edited)`));
    record('lone publishes, default coalescing', lone);

    const again = [];
    for (let i = 0; i < PUBLISHES; i++)
      again.push(await publishOnce(places[0], `Fresh 0, edit ${i}`));
    record('one place republished right after its push, default', again);

    await app.run(async (strapi) => {
      strapi.config.set('plugin::location-content.coalesce', { settleMs: 0, maxWaitMs: 0 });
      return null;
    });
    const nosettle = [];
    for (let i = 0; i < PUBLISHES; i++)
      nosettle.push(await publishOnce(places[1], `Fresh 1, edit ${i}`));
    record('one place republished right after its push, settleMs 0', nosettle);
  } finally {
    await app.stop().catch(() => undefined);
    await emu.stop();
  }
  table([
    [
      `publish() returned -> PUT answered on the emulator (${PUBLISHES} publishes each)`,
      'p50 ms',
      'p95 ms',
      'min ms',
      'max ms',
    ],
    ...variants.map((v) => [
      v.name,
      round(v.p50, 1),
      round(v.p95, 1),
      round(v.min, 1),
      round(v.max, 1),
    ]),
  ]);
  saveResult('freshness', { publishes: PUBLISHES, variants });
  headline(
    'freshness',
    `lone publish p50 ${round(variants[0].p50, 1)} ms, p95 ${round(variants[0].p95, 1)} ms`,
    'p50 < 100 ms',
    variants[0].p50 < 100
  );
});
