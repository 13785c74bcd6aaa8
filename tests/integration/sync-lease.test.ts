jest.setTimeout(60_000);
import { startApp, type TestApp, stopApp } from '../helpers/strapi';
import { createPlace } from '../helpers/content';
import { mark, PLACE, stateOf, until } from '../helpers/sync';

/**
 * A push that outlives the lease of its outbox row (an event loop stalled for longer than the
 * lease, renewals that failed) must not be started a second time beside itself by its own worker.
 */
let app: TestApp;

beforeAll(async () => {
  app = await startApp({
    patchConfig: (config) => {
      // Renewed every second (the floor), so the lease of a slow push is out most of the time.
      config['location-content'].config.leaseMs = 100;
      return config;
    },
  });
});

afterAll(() => stopApp(app));

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

test('a push whose lease ran out is not started again while it still runs', async () => {
  const { strapi, emulator } = app;
  emulator.scriptFaults([
    { kind: 'latency', latencyMs: 1500, method: 'POST', pathPrefix: '/v3.0/pinpoints' },
  ]);
  const since = mark(emulator);
  const slow = await createPlace(strapi, {
    title: 'Slow to answer',
    geo: { lat: 46.2, lng: 6.14 },
  });
  await sleep(300);
  // Other changes wake the worker while the slow POST waits: the slow row is claimable again by then.
  const others = [];
  for (let i = 0; i < 4; i++) {
    others.push(
      await createPlace(strapi, { title: `Meanwhile ${i}`, geo: { lat: 46 + i / 10, lng: 6 } })
    );
    await sleep(200);
  }
  // The slow POST is logged once it is answered: whatever a second push would have sent is in by then.
  const slowPosts = () =>
    emulator
      .requests({ since })
      .filter(
        (r) =>
          r.method === 'POST' &&
          r.path === '/v3.0/pinpoints' &&
          (r.body as { name?: string } | undefined)?.name === 'Slow to answer'
      );
  await until(() => slowPosts().some((r) => r.fault === 'latency'), 'the slow POST to be answered');
  await app.sync().idle();

  expect(slowPosts()).toHaveLength(1);
  expect(emulator.state().pinpoints.filter((p) => p.name === 'Slow to answer')).toHaveLength(1);
  expect(await stateOf(app, PLACE, slow.documentId)).toMatchObject({
    status: 'synced',
    queued: false,
  });
  for (const p of others)
    expect(await stateOf(app, PLACE, p.documentId)).toMatchObject({ status: 'synced' });
});
