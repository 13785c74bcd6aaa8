/**
 * Lost creates on an account that already holds 1,000 pinpoints, paged 20 at a time with
 * limit/offset as the real service pages, under 5% 503, 2% resets before and 3% resets after
 * the request is applied: every new place reaches the remote once.
 */
jest.setTimeout(300_000);
import { startApp, stopApp, type TestApp } from '../helpers/strapi';
import { createPlace } from '../helpers/content';
import { PLACE } from '../helpers/sync';

let app: TestApp;

beforeAll(async () => {
  app = await startApp({
    emulator: { pageSize: 20, requestLogSize: 50_000, pagination: 'offset' },
    patchConfig: (config) => {
      const lc = config['location-content'].config;
      lc.retry = { baseMs: 20, maxMs: 300, maxAttempts: 40 };
      lc.rateLimit = { requestsPerSecond: 400, concurrency: 4 };
      lc.requestTimeoutMs = 3_000;
      return config;
    },
  });
});

afterAll(() => stopApp(app));

/** First hit wins: 5% / 2% / 3% of all calls. */
const FAULTS = {
  seed: Number(process.env.CHAOS_SEED ?? 12),
  rules: [
    { kind: 'status' as const, status: 503, probability: 0.05 },
    { kind: 'reset-before' as const, probability: 0.02 / 0.95 },
    {
      kind: 'reset-after' as const,
      probability: 0.03 / (0.95 * (1 - 0.02 / 0.95)),
    },
  ],
};

test('40 new places on a 1,000-pinpoint account converge without a duplicate', async () => {
  const { strapi, emulator } = app;
  emulator.seed(
    'pinpoints',
    Array.from({ length: 1000 }, (_, i) => ({
      name: `Existing ${i}`,
      latitude: 30 + i / 1000,
      longitude: 2,
    }))
  );
  emulator.setFaults(FAULTS);

  const places = [];
  for (let i = 0; i < 40; i++)
    places.push(
      await createPlace(strapi, {
        title: `New place ${i}`,
        geo: { lat: 44 + i / 100, lng: 4 },
      })
    );
  await app.sync().idle({ timeoutMs: 240_000 });
  const stats = emulator.stats();
  emulator.clearFaults();

  const report = await app.sync().status();
  expect(report.failed).toEqual([]);
  expect(report.counts.pending).toBe(0);
  const remote = emulator.state().pinpoints;
  expect(remote).toHaveLength(1040);
  for (const [i, p] of places.entries()) {
    const s = await app.sync().stateOf({ contentType: PLACE, documentId: p.documentId });
    expect(s).toMatchObject({ status: 'synced' });
    const copies = remote.filter((o) => o.name === `New place ${i}`);
    expect(copies.map((o) => o.id)).toEqual([s?.remoteId]);
  }
  // The faults really happened, and some creates lost their answer.
  expect(stats.resets).toBeGreaterThan(0);
  expect(stats.byStatus['503']).toBeGreaterThan(0);
  const lost = app.logs.filter((l) => l.includes('has no recorded answer'));
  console.info(
    `${lost.length} lost creates, ${emulator.requests({ method: 'GET' }).filter((r) => r.path.startsWith('/v3.0/pinpoints')).length} pinpoint GETs, ${stats.total} calls`
  );
  expect(lost.length).toBeGreaterThan(0);
});
