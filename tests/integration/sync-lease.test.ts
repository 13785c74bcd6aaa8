jest.setTimeout(60_000);
import { startApp, type TestApp, stopApp } from '../helpers/strapi';
import { createPlace } from '../helpers/content';
import type { OutboxRow } from '../../server/src/sync/outbox';
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

test('a push whose lease ran out is not started again while it still runs', async () => {
  const { strapi, emulator } = app;
  // The slow POST waits unanswered (the emulator's hold) until its row has been claimed again by
  // the worker, its lease run out while the push runs: an event, not a latency to outlast.
  emulator.scriptFaults([{ kind: 'hold', method: 'POST', pathPrefix: '/v3.0/pinpoints' }]);
  const claim = jest.spyOn(strapi.plugin('location-content').service('outbox'), 'claim');
  const since = mark(emulator);
  const slow = await createPlace(strapi, {
    title: 'Slow to answer',
    geo: { lat: 46.2, lng: 6.14 },
  });
  const claimsOfSlow = async () =>
    (await Promise.all(claim.mock.results.map((r) => r.value as Promise<OutboxRow[]>)))
      .flat()
      .filter((row) => row.documentId === slow.documentId).length;
  try {
    await until(() => emulator.held() === 1, 'the slow POST to reach the remote');
    // Other changes wake the worker while the slow POST waits: the slow row is claimable again by then.
    const others = [];
    for (let i = 0; i < 4; i++)
      others.push(
        await createPlace(strapi, { title: `Meanwhile ${i}`, geo: { lat: 46 + i / 10, lng: 6 } })
      );
    await until(async () => (await claimsOfSlow()) >= 2, 'the slow row to be claimed again');
    emulator.release();
    claim.mockRestore();
    await app.sync().idle();

    const slowPosts = emulator
      .requests({ since })
      .filter(
        (r) =>
          r.method === 'POST' &&
          r.path === '/v3.0/pinpoints' &&
          (r.body as { name?: string } | undefined)?.name === 'Slow to answer'
      );
    expect(slowPosts).toHaveLength(1);
    expect(slowPosts[0].fault).toBe('hold');
    expect(emulator.state().pinpoints.filter((p) => p.name === 'Slow to answer')).toHaveLength(1);
    expect(await stateOf(app, PLACE, slow.documentId)).toMatchObject({
      status: 'synced',
      queued: false,
    });
    for (const p of others)
      expect(await stateOf(app, PLACE, p.documentId)).toMatchObject({ status: 'synced' });
  } finally {
    emulator.release();
    claim.mockRestore();
  }
});
