jest.setTimeout(120_000);
import type { SyncStatusReport } from '../../shared/contracts/sync';
import { startApp, type TestApp, stopApp } from '../helpers/strapi';
import { createHappening, createPlace, createTour } from '../helpers/content';
import {
  docs,
  HAPPENING,
  mark,
  PLACE,
  remoteCall,
  remoteOf,
  stateOf,
  TOUR,
  until,
  uploadNoise,
  writes,
  stateIn,
  remoteIdOf,
} from '../helpers/sync';

/** Bad entries and remote refusals: failed with a reason an editor can act on, the rest syncs. */
let app: TestApp;

beforeAll(async () => {
  app = await startApp({
    patchConfig: (config) => {
      const lc = config['location-content'].config;
      lc.maxMediaBytes = 4096;
      lc.retry = { baseMs: 20, maxMs: 200, maxAttempts: 4 };
      return config;
    },
  });
});

afterAll(() => stopApp(app));

const failedOf = async (documentId: string) =>
  ((await app.sync().status()) as SyncStatusReport).failed.filter(
    (f) => f.documentId === documentId
  );

test('bad entries are failed with a readable reason while the rest syncs', async () => {
  const { strapi, emulator } = app;
  const since = mark(emulator);
  const nowhere = await createPlace(strapi, { title: 'Nowhere', geo: null });
  const { file: big } = await uploadNoise(strapi, 'huge.png', 64);
  const heavy = await createPlace(strapi, { title: 'Heavy', cover: big.id });
  const good = await createPlace(strapi, { title: 'Fine', geo: { lat: 1.5, lng: 2.5 } });
  const backwards = await createHappening(strapi, {
    title: 'Backwards',
    slots: [{ from: '2026-02-02T10:00:00Z', to: '2026-02-02T09:00:00Z' }],
    place: good.documentId,
  });
  const fine = await createHappening(strapi, {
    title: 'Forwards',
    slots: [{ from: '2026-02-02T10:00:00Z', to: '2026-02-02T11:00:00Z' }],
    place: good.documentId,
  });
  await app.sync().idle();

  expect(await remoteOf(app, PLACE, good.documentId)).toMatchObject({ name: 'Fine' });
  expect(await remoteOf(app, HAPPENING, fine.documentId)).toMatchObject({ name: 'Forwards' });
  // Nothing invalid reached the remote: no 400, one POST per good entry only.
  expect(
    writes(emulator, since)
      .map((r) => `${r.method} ${r.path} ${r.status}`)
      .sort()
  ).toEqual(['POST /v3.0/events 201', 'POST /v3.0/pinpoints 201']);

  const report: SyncStatusReport = await app.sync().status();
  const failed = Object.fromEntries(report.failed.map((f) => [f.documentId, f]));
  expect(failed[nowhere.documentId]).toMatchObject({
    contentType: PLACE,
    locale: 'en',
    resource: 'pinpoint',
  });
  expect(failed[nowhere.documentId].reason).toMatch(
    /latitude: empty field geo \(Geo point\) › lat/
  );
  expect(failed[heavy.documentId]).toMatchObject({ contentType: PLACE, locale: 'en' });
  expect(failed[heavy.documentId].reason).toMatch(/huge\.png is [\d.]+ KB, the limit is 4 KB/);
  expect(failed[backwards.documentId]).toMatchObject({
    contentType: HAPPENING,
    locale: '',
    resource: 'event',
  });
  expect(failed[backwards.documentId].reason).toMatch(
    /end 2026-02-02T09:00:00.000Z is before start 2026-02-02T10:00:00.000Z/
  );
  expect(report.counts.failed).toBe(3);
  expect(report.byContentType.find((t) => t.contentType === PLACE)?.counts).toMatchObject({
    failed: 2,
    synced: 1,
  });

  // The editor fixes one: it syncs and leaves the failed list.
  await docs(strapi, PLACE).update({
    documentId: nowhere.documentId,
    data: { geo: { lat: 3, lng: 4 } },
  });
  await docs(strapi, PLACE).publish({ documentId: nowhere.documentId });
  await app.sync().idle();
  expect(await stateOf(app, PLACE, nowhere.documentId)).toMatchObject({
    status: 'synced',
    lastError: null,
  });
  expect(await failedOf(nowhere.documentId)).toEqual([]);
});

test('a permanent refusal stops at once and waits; retryFailed sends it again', async () => {
  const { strapi, emulator } = app;
  emulator.scriptFaults([
    {
      kind: 'status',
      status: 400,
      body: { name: ['Ensure this field has no more than 5 characters.'] },
      method: 'POST',
      pathPrefix: '/v3.0/pinpoints',
    },
  ]);
  const since = mark(emulator);
  const place = await createPlace(strapi, { title: 'Refused' });
  await app.sync().idle();
  const s = await stateIn(app, PLACE, place.documentId);
  expect(s).toMatchObject({ status: 'failed', remoteId: null, attempts: 1, queued: false });
  expect(s.lastError).toMatch(/name: Ensure this field has no more than 5 characters/);
  expect(writes(emulator, since)).toHaveLength(1);

  expect(await app.sync().retryFailed()).toBeGreaterThanOrEqual(1);
  await app.sync().idle();
  expect(await stateOf(app, PLACE, place.documentId)).toMatchObject({
    status: 'synced',
    lastError: null,
    attempts: 0,
  });
  expect(emulator.state().pinpoints.filter((p) => p.name === 'Refused')).toHaveLength(1);
});

test('retryable errors back off and give up after maxAttempts with the reason; retryFailed resumes', async () => {
  const { strapi, emulator } = app;
  const place = await createPlace(strapi, { title: 'Flaky 0' });
  await app.sync().idle();
  const remoteId = await remoteIdOf(app, PLACE, place.documentId);
  emulator.setFaults({
    rules: [
      { kind: 'status', status: 503, method: 'PUT', pathPrefix: `/v3.0/pinpoints/${remoteId}` },
    ],
  });
  const since = mark(emulator);
  await docs(strapi, PLACE).update({ documentId: place.documentId, data: { title: 'Flaky 1' } });
  await docs(strapi, PLACE).publish({ documentId: place.documentId });

  await until(
    async () => (await stateIn(app, PLACE, place.documentId)).attempts >= 2,
    'a second attempt'
  );
  expect(await stateOf(app, PLACE, place.documentId)).toMatchObject({
    status: 'pending',
    queued: true,
  });
  await until(
    async () => (await stateIn(app, PLACE, place.documentId)).status === 'failed',
    'giving up'
  );
  const s = await stateIn(app, PLACE, place.documentId);
  expect(s.lastError).toMatch(/^Gave up after 4 attempts: .*503/);
  expect(s.queued).toBe(false);
  expect(writes(emulator, since).filter((r) => r.method === 'PUT')).toHaveLength(4);
  expect((await failedOf(place.documentId))[0].reason).toMatch(/Gave up after 4 attempts/);

  emulator.clearFaults();
  await app.sync().retryFailed();
  await app.sync().idle();
  expect(await stateOf(app, PLACE, place.documentId)).toMatchObject({
    status: 'synced',
    remoteId,
    lastError: null,
  });
  expect(await remoteOf(app, PLACE, place.documentId)).toMatchObject({ name: 'Flaky 1' });
});

test('a 410 on delete means gone, like a 404', async () => {
  const { strapi, emulator } = app;
  const place = await createPlace(strapi, { title: 'Venue 410' });
  const happening = await createHappening(strapi, {
    title: 'Gone',
    slots: [{ from: '2026-04-04T10:00:00Z' }],
    place: place.documentId,
  });
  await app.sync().idle();
  expect(await stateOf(app, HAPPENING, happening.documentId)).toMatchObject({ status: 'synced' });
  emulator.scriptFaults([
    {
      kind: 'status',
      status: 410,
      body: { detail: 'Gone.' },
      method: 'DELETE',
      pathPrefix: '/v3.0/events',
    },
  ]);
  await docs(strapi, HAPPENING).unpublish({ documentId: happening.documentId });
  await app.sync().idle();
  expect(emulator.requests({ method: 'DELETE' }).slice(-1)[0].status).toBe(410);
  expect(await stateOf(app, HAPPENING, happening.documentId)).toBeNull();
  expect(await failedOf(happening.documentId)).toEqual([]);
});

test('membership errors of the remote are recorded on the list, and tried again once fixable', async () => {
  const { strapi, emulator } = app;
  const a = await createPlace(strapi, { title: 'Member A', geo: { lat: 5, lng: 5 } });
  const b = await createPlace(strapi, { title: 'Member B', geo: { lat: 6, lng: 6 } });
  await app.sync().idle();
  const aId = await remoteIdOf(app, PLACE, a.documentId);
  const bId = await remoteIdOf(app, PLACE, b.documentId);
  // Someone deletes pinpoint A on the remote, behind the plugin's back.
  expect((await remoteCall(emulator, 'DELETE', `/v3.0/pinpoints/${aId}`)).status).toBe(204);

  const tour = await createTour(strapi, { name: 'Members', stops: [a.documentId, b.documentId] });
  await app.sync().idle();
  const s = await stateIn(app, TOUR, tour.documentId);
  expect(s.status).toBe('failed');
  expect(s.lastError).toMatch(/refused part of the list membership.*Not found/);
  expect(s.lastError).toContain(String(aId));
  expect((await remoteOf(app, TOUR, tour.documentId)).members).toEqual([bId]);
  expect((await failedOf(tour.documentId))[0]).toMatchObject({
    contentType: TOUR,
    resource: 'list',
  });

  // A changes: its PUT finds it gone, it is created again, and the list takes the new id.
  await docs(strapi, PLACE).update({ documentId: a.documentId, data: { title: 'Member A again' } });
  await docs(strapi, PLACE).publish({ documentId: a.documentId });
  await app.sync().idle();
  const aAgain = await remoteIdOf(app, PLACE, a.documentId);
  expect(aAgain).not.toBe(aId);
  expect(await stateOf(app, TOUR, tour.documentId)).toMatchObject({
    status: 'synced',
    lastError: null,
  });
  expect([...(await remoteOf(app, TOUR, tour.documentId)).members].sort()).toEqual(
    [aAgain, bId].sort()
  );
});
