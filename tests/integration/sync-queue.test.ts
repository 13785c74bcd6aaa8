jest.setTimeout(120_000);
import { startApp, type TestApp, stopApp } from '../helpers/strapi';
import { createIcon, createPlace } from '../helpers/content';
import { createOutbox } from '../../server/src/sync/outbox';
import {
  docs,
  ICON,
  mark,
  PLACE,
  remoteOf,
  setPluginConfig,
  remoteIdOf,
  stateOf,
  until,
  writes,
} from '../helpers/sync';

/** The queue: coalescing, the remote's rate limit, and saves that never wait for the remote. */
let app: TestApp;

beforeAll(async () => {
  app = await startApp({
    // A loop of saves is a burst: the push waits until the entry is quiet for 2 s. Long enough that
    // a save stalled by a busy machine (jest runs two files at once) does not end the burst early.
    patchConfig: (config) => {
      config['location-content'].config.coalesce = { settleMs: 2_000, maxWaitMs: 100_000 };
      // Below the emulator's limit in the rate test, two calls at a time at most.
      config['location-content'].config.rateLimit = { requestsPerSecond: 40, concurrency: 2 };
      return config;
    },
  });
});

afterAll(() => stopApp(app));

test('100 quick publishes of one place are at most 2 pushes, and the last one wins', async () => {
  const { strapi, emulator } = app;
  const place = await createPlace(strapi, { title: 'Counter 0' });
  await app.sync().idle();
  const remoteId = await remoteIdOf(app, PLACE, place.documentId);

  const since = mark(emulator);
  for (let i = 1; i <= 100; i++) {
    await docs(strapi, PLACE).update({
      documentId: place.documentId,
      data: { title: `Counter ${i}` },
    });
    await docs(strapi, PLACE).publish({ documentId: place.documentId });
    // As separate requests would: the worker gets its turn between saves, so coalescing is really tested.
    await new Promise((resolve) => setImmediate(resolve));
  }
  await app.sync().idle();
  const puts = writes(emulator, since);
  expect(puts.length).toBeGreaterThanOrEqual(1);
  expect(puts.length).toBeLessThanOrEqual(2);
  expect(puts.every((r) => r.method === 'PUT' && r.path === `/v3.0/pinpoints/${remoteId}`)).toBe(
    true
  );
  expect(await remoteOf(app, PLACE, place.documentId)).toMatchObject({
    id: remoteId,
    name: 'Counter 100',
  });
});

test('100 quick updates of an entry without draft & publish are at most 2 pushes', async () => {
  const { strapi, emulator } = app;
  const since = mark(emulator);
  const icon = await createIcon(strapi, 'Flag 0');
  for (let i = 1; i <= 99; i++) {
    await docs(strapi, ICON).update({ documentId: icon.documentId, data: { label: `Flag ${i}` } });
    await new Promise((resolve) => setImmediate(resolve));
  }
  await app.sync().idle();
  const calls = writes(emulator, since);
  expect(calls.length).toBeGreaterThanOrEqual(1);
  expect(calls.length).toBeLessThanOrEqual(2);
  expect(calls[0].method).toBe('POST');
  expect(emulator.state().categories.filter((c) => c.name.startsWith('Flag '))).toHaveLength(1);
  expect(await remoteOf(app, ICON, icon.documentId)).toMatchObject({ name: 'Flag 99' });
});

test('a 429 storm pauses the whole queue, and everything still syncs', async () => {
  const { strapi, emulator } = app;
  // Four calls at once, then four a second: 12 creates meet the limit a few times over.
  emulator.configure({ rateLimit: { rate: 4, burst: 4 } });
  try {
    const pausesBefore = (await app.sync().status()).rateLimit.pauses;
    const places = [];
    for (let i = 0; i < 12; i++)
      places.push(
        await createPlace(strapi, { title: `Storm ${i}`, geo: { lat: 10 + i, lng: 20 } })
      );
    await app.sync().idle({ timeoutMs: 60_000 });

    for (const p of places)
      expect(await stateOf(app, PLACE, p.documentId)).toMatchObject({
        status: 'synced',
        attempts: 0,
      });
    const stormNames = emulator
      .state()
      .pinpoints.filter((p) => p.name.startsWith('Storm '))
      .map((p) => p.name);
    expect(stormNames.sort()).toEqual(places.map((_, i) => `Storm ${i}`).sort());
    expect(emulator.stats().throttled).toBeGreaterThan(0);
    const report = await app.sync().status();
    expect(report.rateLimit.pauses).toBeGreaterThan(pausesBefore);
    expect(report.failed).toEqual([]);
  } finally {
    emulator.configure({ rateLimit: null });
  }
});

test('a save does not wait for the remote: a publish returns while its push is held unanswered', async () => {
  const { strapi, emulator } = app;
  const place = await createPlace(strapi, { title: 'Slow 0' });
  await app.sync().idle();
  // The remote holds the pinpoint calls unanswered until the test lets them go: an order, not a
  // speed (no latency to outlast three saves on a loaded machine).
  emulator.setFaults({ rules: [{ kind: 'hold', pathPrefix: '/v3.0/pinpoints' }] });
  try {
    const since = mark(emulator);
    await docs(strapi, PLACE).update({ documentId: place.documentId, data: { title: 'Slow 1' } });
    await docs(strapi, PLACE).publish({ documentId: place.documentId });
    const created = await createPlace(strapi, { title: 'Slow new' });
    // Both pushes reached the remote and wait for its answer; the saves have returned.
    await until(() => emulator.held() === 2, 'both pushes to reach the remote');
    expect(writes(emulator, since)).toEqual([]);
    emulator.clearFaults();
    emulator.release();
    await app.sync().idle();
    expect(writes(emulator, since).length).toBe(2);
    expect(await remoteOf(app, PLACE, place.documentId)).toMatchObject({ name: 'Slow 1' });
    expect(await remoteOf(app, PLACE, created.documentId)).toMatchObject({ name: 'Slow new' });
  } finally {
    emulator.clearFaults();
    emulator.release();
  }
});

test('the plugin holds its own rate and concurrency: no 429 from a remote that allows a little more', async () => {
  const { strapi, emulator } = app;
  emulator.configure({ rateLimit: { rate: 50, burst: 5 } });
  emulator.setFaults({ rules: [{ kind: 'latency', latencyMs: 100, pathPrefix: '/v3.0/' }] });
  try {
    const throttled = emulator.stats().throttled;
    const since = mark(emulator);
    const places = [];
    for (let i = 0; i < 20; i++)
      places.push(await createPlace(strapi, { title: `Steady ${i}`, geo: { lat: -i, lng: i } }));
    await app.sync().idle();
    for (const p of places)
      expect(await stateOf(app, PLACE, p.documentId)).toMatchObject({ status: 'synced' });
    expect(emulator.stats().throttled).toBe(throttled);
    // At most `concurrency` calls were open at any moment (seen from the emulator: each call is open
    // for its 100 ms of latency, so counting at the middle of each call leaves room for clock jitter).
    const calls = emulator
      .requests({ since })
      .map((r) => ({ from: Date.parse(r.time), to: Date.parse(r.time) + r.durationMs }));
    const open = (t: number) => calls.filter((c) => c.from < t && t < c.to).length;
    expect(Math.max(...calls.map((c) => open((c.from + c.to) / 2)))).toBeLessThanOrEqual(2);
  } finally {
    emulator.configure({ rateLimit: null });
    emulator.clearFaults();
  }
});

test('rows are leased: two instances never claim the same row; an expired lease is taken over', async () => {
  const { strapi } = app;
  setPluginConfig(strapi, 'syncEnabled', false);
  const a = createOutbox(strapi);
  const b = createOutbox(strapi);
  const keys = Array.from({ length: 30 }, (_, i) => ({
    contentType: PLACE,
    documentId: `lease-${i}`,
    locale: 'en',
    resource: 'pinpoint' as const,
    reason: 'test',
  }));
  try {
    await a.enqueue(keys);
    const [ra, rb] = await Promise.all([a.claim(20, 60_000), b.claim(20, 60_000)]);
    const ids = [...ra, ...rb].map((r) => r.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toHaveLength(30);
    // Nothing left for anyone while the leases hold.
    expect(await a.claim(50, 60_000)).toEqual([]);
    // b "crashes": its rows come back once their lease runs out, not before.
    await b.renew(
      rb.map((r) => r.id),
      1
    );
    await new Promise((r) => setTimeout(r, 20));
    const taken = await a.claim(50, 60_000);
    expect(taken.map((r) => r.id).sort()).toEqual(rb.map((r) => r.id).sort());
    // b cannot complete rows it no longer holds; a can.
    await b.complete(rb[0]);
    expect((await a.depth()).depth).toBe(30);
    // All at once, as the worker's pushes end: one after another, each waits out the batcher's window.
    const completed = await Promise.all([...ra, ...taken].map((row) => a.complete(row)));
    expect(completed).toEqual(completed.map(() => true));
    expect(completed).toHaveLength(30);
    expect((await a.depth()).depth).toBe(0);
  } finally {
    setPluginConfig(strapi, 'syncEnabled', true);
  }
});
