jest.setTimeout(120_000);
import { startApp, removeDir, type TestApp } from '../helpers/strapi';
import { createHappening, createPlace } from '../helpers/content';
import { HAPPENING, PLACE, mark, remoteOf, stateOf, until } from '../helpers/sync';

/**
 * An entry waiting for another one to reach the remote is pushed again when that one gets there,
 * however it got there; the worker's sweep for stranded entries leaves waiting entries alone.
 */
let app: TestApp;

beforeAll(async () => {
  app = await startApp();
});

afterAll(async () => {
  await app?.stop();
  if (app) await removeDir(app.appDir);
});

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
  const place = await createPlace(strapi, { title: 'Adopted venue', geo: { lat: 45.76, lng: 4.83 } });
  const happening = await createHappening(strapi, { title: 'Waiting concert', slots, place: place.documentId });
  await until(async () => /^Waiting for api::place\.place/.test((await stateOf(app, HAPPENING, happening.documentId))?.lastError ?? ''), 'the event to wait for its pinpoint');

  await app.sync().idle();
  // The interleaving really happened: lost POST, listing, adoption, failed PUT, then a PUT that went through.
  const calls = emulator.requests({ since }).filter((r: any) => r.path.startsWith('/v3.0/pinpoints'));
  expect(calls.map((r: any) => `${r.method} ${r.status}`)).toEqual(['POST null', 'GET 200', 'PUT 503', 'PUT 200']);

  // Nothing queued any more, and the event is online at once: not 10 s later by the sweep.
  const pinpointId = (await stateOf(app, PLACE, place.documentId)).remoteId;
  expect(await stateOf(app, HAPPENING, happening.documentId)).toMatchObject({ status: 'synced', lastError: null, queued: false });
  expect(await remoteOf(app, HAPPENING, happening.documentId)).toMatchObject({ name: 'Waiting concert', pinpoint: pinpointId });
  expect(sweeps()).toEqual([]);
});
