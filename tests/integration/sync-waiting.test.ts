jest.setTimeout(120_000);
import { startApp, type TestApp, stopApp } from '../helpers/strapi';
import { createHappening, createPlace } from '../helpers/content';
import {
  HAPPENING,
  PLACE,
  mark,
  remoteOf,
  stateOf,
  until,
  stateIn,
  remoteIdOf,
} from '../helpers/sync';

/**
 * An entry waiting for another one to reach the remote is pushed again when that one gets there,
 * however it got there; the worker's sweep for stranded entries leaves waiting entries alone.
 */
let app: TestApp;

beforeAll(async () => {
  app = await startApp();
});

afterAll(() => stopApp(app));

const slots = [{ from: '2026-06-01T10:00:00.000Z', to: '2026-06-01T12:00:00.000Z' }];
const sweeps = () => app.logs.filter((l) => l.includes('had nothing queued'));

test('an event waiting for a pinpoint whose lost create is adopted by a push that then fails follows the pinpoint', async () => {
  const { strapi, emulator } = app;
  // The place's create is stored but its answer lost (slowly, so the event goes waiting first);
  // the next push adopts the lost pinpoint (its id is now in the state) and its PUT fails; the
  // push after that only updates: its id is not new to that push, but it is new to the event.
  emulator.scriptFaults([
    { kind: 'reset-after', method: 'POST', pathPrefix: '/v3.0/pinpoints', latencyMs: 1500 },
    { kind: 'status', status: 503, method: 'PUT', pathPrefix: '/v3.0/pinpoints' },
  ]);
  const since = mark(emulator);
  const place = await createPlace(strapi, {
    title: 'Adopted venue',
    geo: { lat: 45.76, lng: 4.83 },
  });
  const happening = await createHappening(strapi, {
    title: 'Waiting concert',
    slots,
    place: place.documentId,
  });
  await until(
    async () =>
      /^Waiting for api::place\.place/.test(
        (await stateOf(app, HAPPENING, happening.documentId))?.lastError ?? ''
      ),
    'the event to wait for its pinpoint'
  );

  await app.sync().idle();
  // The interleaving really happened: lost POST, listing, adoption, failed PUT, then a PUT that went through.
  const calls = emulator.requests({ since }).filter((r) => r.path.startsWith('/v3.0/pinpoints'));
  expect(calls.map((r) => `${r.method} ${r.status}`)).toEqual([
    'POST null',
    'GET 200',
    'PUT 503',
    'PUT 200',
  ]);

  // Nothing queued any more, and the event is online at once: not 10 s later by the sweep.
  const pinpointId = await remoteIdOf(app, PLACE, place.documentId);
  expect(await stateOf(app, HAPPENING, happening.documentId)).toMatchObject({
    status: 'synced',
    lastError: null,
    queued: false,
  });
  expect(await remoteOf(app, HAPPENING, happening.documentId)).toMatchObject({
    name: 'Waiting concert',
    pinpoint: pinpointId,
  });
  expect(sweeps()).toEqual([]);
});

test('the sweep re-queues an entry left pending with nothing queued, names it, and leaves entries waiting for a failed one alone', async () => {
  const { strapi, emulator } = app;
  const before = sweeps().length;
  const mine = () => sweeps().slice(before);
  // A pinpoint the remote refuses for good, and an event waiting for it: legitimately pending, nothing queued.
  emulator.scriptFaults([
    {
      kind: 'status',
      status: 400,
      body: { name: ['Not this name.'] },
      method: 'POST',
      pathPrefix: '/v3.0/pinpoints',
    },
  ]);
  const refused = await createPlace(strapi, { title: 'Refused venue', geo: { lat: 1, lng: 2 } });
  const waiter = await createHappening(strapi, {
    title: 'Patient event',
    slots,
    place: refused.documentId,
  });
  // And an entry stranded by hand (what an unforeseen race would leave): pending, nothing queued.
  const place = await createPlace(strapi, { title: 'Stranded venue', geo: { lat: 3, lng: 4 } });
  await app.sync().idle();
  expect(await stateOf(app, PLACE, refused.documentId)).toMatchObject({
    status: 'failed',
    remoteId: null,
  });
  const waiting = await stateIn(app, HAPPENING, waiter.documentId);
  expect(waiting).toMatchObject({ status: 'pending', queued: false });
  expect(waiting.lastError).toMatch(/^Waiting for api::place\.place/);
  // The sweep looks at entries untouched for 10 s: both are made so by dating their states back,
  // rather than by waiting 10 s (updateMany leaves a given updatedAt as it is).
  const untouched = new Date(Date.now() - 11_000);
  const states = strapi.db.query('plugin::location-content.sync-state');
  await states.updateMany({
    where: { entryDocumentId: place.documentId },
    data: { status: 'pending', payloadHash: null, updatedAt: untouched },
  });
  await states.updateMany({
    where: { entryDocumentId: waiter.documentId },
    data: { updatedAt: untouched },
  });
  const stranded = jest.spyOn(strapi.plugin('location-content').service('state'), 'stranded');

  await until(() => mine().length > 0, 'the sweep', 30_000);
  await app.sync().idle();
  expect(mine()).toHaveLength(1);
  expect(mine()[0]).toContain(`api::place.place ${place.documentId} (en)`);
  expect(await stateOf(app, PLACE, place.documentId)).toMatchObject({
    status: 'synced',
    queued: false,
  });

  // A few more sweeps (one a second) with the waiting event old enough for them: it is never
  // taken for a stranded one (it used to be, every 10 s).
  const sweepsSoFar = stranded.mock.calls.length;
  await until(() => stranded.mock.calls.length >= sweepsSoFar + 3, 'three more sweeps');
  stranded.mockRestore();
  expect(mine().filter((l) => l.includes(waiter.documentId))).toEqual([]);
  expect(await stateOf(app, HAPPENING, waiter.documentId)).toMatchObject({
    status: 'pending',
    queued: false,
    lastError: waiting.lastError,
    lastErrorAt: waiting.lastErrorAt,
  });

  // Its pinpoint fixed, it follows.
  await app.sync().retryFailed();
  await app.sync().idle();
  expect(await stateOf(app, HAPPENING, waiter.documentId)).toMatchObject({
    status: 'synced',
    queued: false,
  });
  expect(mine()).toHaveLength(1);
});
