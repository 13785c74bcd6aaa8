/**
 * npm run bench:efficiency [-- --entries 500]
 *
 * Remote calls (token requests counted apart) for:
 *  (a) one change of one published pinpoint: documents().update() + publish() of a Place;
 *  (b) 100 quick saves of one entry: 100 x (update + publish) of a Place, back to back;
 *  (c) a resync where nothing changed, over ENTRIES places already in sync;
 *  plus (d) 100 quick updates of an Icon (no draft & publish), and (e) = (b) without the settle
 *  window (coalesce { settleMs: 0, maxWaitMs: 0 }), to show what the window buys.
 * The plugin runs with its default coalescing (settle 300 ms, max wait 5 s).
 * Loops of saves yield to the event loop between saves (setImmediate), as separate HTTP requests
 * would: on SQLite every query resolves synchronously, so a tight loop of document-service calls
 * is one long chain of microtasks and the worker (woken with setImmediate) could not run at all
 * until the loop ends, which would make any burst look like one push.
 * Headline: the calls of (a), (b), (c). Goal 1, <= 2, 0.
 */
const { headline } = require('./lib/headline');
const { ensureBuilt, table, saveResult, runMain, arg } = require('./lib/common');
const { startEmulatorProcess } = require('./lib/emulator');
const { timedResync } = require('./lib/resync');
const { startChildApp } = require('../tests/helpers/node')('child-app');

const ENTRIES = arg('entries', 500);

/** Inside the Strapi child: 100 quick update + publish of one place. */
async function quickPublishes(strapi, { place }) {
  const t = Date.now();
  for (let i = 0; i < 100; i++) {
    await strapi
      .documents('api::place.place')
      .update({ documentId: place, data: { title: `Quick ${i}` } });
    await strapi.documents('api::place.place').publish({ documentId: place });
    // Each save is its own request in real life: let the event loop turn (see the header).
    await new Promise((r) => setImmediate(r));
  }
  return `${Date.now() - t} ms of saves`;
}

runMain(async ({ appDir }) => {
  ensureBuilt();
  const emu = await startEmulatorProcess({ strict: true, requestLogSize: ENTRIES * 2 + 5_000 });
  const app = await startChildApp({
    appDir: await appDir(),
    emulator: emu,
    patch: {
      config: { syncEnabled: false, rateLimit: { requestsPerSecond: 100, concurrency: 4 } },
    },
  });
  const rows = [];
  const measure = async (label, goal, action) => {
    const since = await emu.call('lastSeq');
    const detail = await action();
    await app.call('idle', { timeoutMs: 120_000 });
    // Anything the worker still had in mind (a settle window, a retry) has had time to go out.
    await new Promise((r) => setTimeout(r, 1_000));
    await app.call('idle', { timeoutMs: 120_000 });
    const calls = await emu.call('calls', { since });
    rows.push({ label, goal, calls, detail });
    return calls;
  };
  try {
    await app.call('seedPlaces', { count: ENTRIES, prefix: 'Efficiency' });
    await timedResync(app);
    const made = await app.run(async (strapi) => {
      const PLACE = 'api::place.place';
      const place = await strapi.documents(PLACE).create({
        data: { title: 'Efficiency target', address: '1 Main St', geo: { lat: 43.6, lng: 1.44 } },
      });
      await strapi.documents(PLACE).publish({ documentId: place.documentId });
      const icon = await strapi
        .documents('api::icon.icon')
        .create({ data: { label: 'Efficiency icon' } });
      return { place: place.documentId, icon: icon.documentId };
    });
    await app.call('idle');

    await measure('(a) one update + publish of one pinpoint', '1', () =>
      app.run(async (strapi, { place }) => {
        await strapi
          .documents('api::place.place')
          .update({ documentId: place, data: { title: 'Efficiency target, renamed' } });
        await strapi.documents('api::place.place').publish({ documentId: place });
      }, made)
    );
    await measure('(b) 100 quick update + publish of one pinpoint', '<= 2', () =>
      app.run(quickPublishes, made)
    );
    const remoteName = await app.run(
      async (strapi, { place }, { states }) => (await states({ entry_document_id: place }))[0],
      made
    );
    await measure(`(c) resync, nothing changed (${ENTRIES + 2} entries)`, '0', async () => {
      await app.call('resync');
      for (;;) {
        const s = await app.call('status');
        if (s.resync?.state === 'done')
          return `resync: ${s.resync.skipped} skipped, ${s.resync.done} done, ${s.resync.failed} failed`;
        await new Promise((r) => setTimeout(r, 200));
      }
    });
    await measure('(d) 100 quick updates of one Icon (no D&P)', '<= 2', () =>
      app.run(async (strapi, { icon }) => {
        for (let i = 0; i < 100; i++) {
          await strapi
            .documents('api::icon.icon')
            .update({ documentId: icon, data: { label: `Icon ${i}` } });
          await new Promise((r) => setImmediate(r));
        }
      }, made)
    );
    // The other side of the trade-off of bench:freshness: without a settle window, bursts are not one push.
    await app.run(async (strapi) => {
      strapi.config.set('plugin::location-content.coalesce', { settleMs: 0, maxWaitMs: 0 });
      return null;
    });
    await measure('(e) as (b), with coalesce settleMs 0 (for comparison)', 'info', () =>
      app.run(quickPublishes, made)
    );
    const last = (await emu.call('requests', { filter: { method: 'PUT' }, bodies: true }))
      .filter((r) => r.path === `/v3.0/pinpoints/${remoteName.remoteId}`)
      .pop();
    if (last?.body?.name !== 'Quick 99')
      throw new Error(
        `the last PUT of the pinpoint carried ${JSON.stringify(last?.body?.name)}, not "Quick 99"`
      );
  } finally {
    await app.stop().catch(() => undefined);
    await emu.stop();
  }
  table([
    ['scenario', 'goal', 'API calls', 'by method', 'token requests', 'note'],
    ...rows.map((r) => [
      r.label,
      r.goal,
      r.calls.total,
      JSON.stringify(r.calls.byMethod),
      r.calls.tokens,
      r.detail ?? '',
    ]),
  ]);
  saveResult('efficiency', { entries: ENTRIES, rows });
  const [a, b, c] = rows.map((r) => r.calls.total);
  headline(
    'efficiency',
    `remote calls (a) ${a}, (b) ${b}, (c) ${c}`,
    '1, <= 2, 0',
    a === 1 && b <= 2 && c === 0
  );
});
