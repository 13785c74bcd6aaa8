/**
 * npm run bench:freshness [-- --publishes 200]
 *
 * Time from documents().publish() returning (in the Strapi process) to the emulator having
 * answered the PUT of that pinpoint (arrival time + duration, on the emulator), with an idle
 * queue before each publish. PUBLISHES publishes of a synced Place, each after a draft edit.
 * Twice: with the plugin's default coalescing (settle 300 ms, max wait 5 s) and with
 * coalesce { settleMs: 0, maxWaitMs: 0 }. Both clocks are the machine's wall clock.
 * Headline: p50 and p95 with the default coalescing.
 */
const { ensureBuilt, median, percentile, round, table, saveResult, runMain } = require('./lib/common');
const { startEmulatorProcess } = require('./lib/emulator');
const { startChildApp } = require('../tests/helpers/child-app');

const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i === -1 ? Number(process.env[`BENCH_${name.toUpperCase()}`] ?? fallback) : Number(process.argv[i + 1]);
};
const PUBLISHES = arg('publishes', 200);

runMain(async ({ appDir }) => {
  ensureBuilt();
  const emu = await startEmulatorProcess({ strict: true, requestLogSize: 5_000 });
  const app = await startChildApp({ appDir: await appDir(), emulator: emu, patch: { config: { rateLimit: { requestsPerSecond: 100, concurrency: 4 } } } });
  const variants = [];
  try {
    const { documentId } = await app.run(async (strapi) => {
      const p = await strapi.documents('api::place.place').create({ data: { title: 'Fresh', address: '1 Main St', geo: { lat: 50.63, lng: 3.06 } } });
      await strapi.documents('api::place.place').publish({ documentId: p.documentId });
      return p;
    });
    await app.call('idle');
    const [state] = await app.call('states', { where: { entry_document_id: documentId } });
    const path = `/v3.0/pinpoints/${state.remoteId}`;

    for (const variant of [
      { name: 'default coalescing (settle 300 ms)', coalesce: null },
      { name: 'coalesce settleMs 0', coalesce: { settleMs: 0, maxWaitMs: 0 } },
    ]) {
      if (variant.coalesce) {
        await app.run(async (strapi, c) => {
          strapi.config.set('plugin::location-content.coalesce', c);
          return null;
        }, variant.coalesce);
      }
      const latencies = [];
      for (let i = 0; i < PUBLISHES; i++) {
        await app.call('idle');
        await new Promise((r) => setTimeout(r, 20));
        const since = await emu.call('lastSeq');
        const returned = await app.run(async (strapi, { documentId, title }) => {
          await strapi.documents('api::place.place').update({ documentId, data: { title } });
          await strapi.documents('api::place.place').publish({ documentId });
          return Date.now();
        }, { documentId, title: `Fresh ${variant.coalesce ? 'b' : 'a'} ${i}` });
        const put = await emu.call('waitFor', { since, method: 'PUT', path, timeoutMs: 30_000 });
        latencies.push(Date.parse(put.time) + put.durationMs - returned);
      }
      variants.push({ name: variant.name, p50: median(latencies), p95: percentile(latencies, 95), min: Math.min(...latencies), max: Math.max(...latencies) });
      process.stderr.write(`> ${variant.name}: done\n`);
    }
  } finally {
    await app.stop().catch(() => undefined);
    await emu.stop();
  }
  table([
    [`publish() returned -> PUT answered on the emulator (${PUBLISHES} publishes)`, 'p50 ms', 'p95 ms', 'min ms', 'max ms'],
    ...variants.map((v) => [v.name, round(v.p50, 1), round(v.p95, 1), round(v.min, 1), round(v.max, 1)]),
  ]);
  saveResult('freshness', { publishes: PUBLISHES, variants });
  process.stdout.write(`freshness with the default config: p50 ${round(variants[0].p50, 1)} ms, p95 ${round(variants[0].p95, 1)} ms (goal p50 < 100 ms)\n`);
});
