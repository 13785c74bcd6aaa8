jest.setTimeout(240_000);
import type { ImportPlan, ImportProgress } from '../../shared/contracts/import';
import { startApp, stopApp, type TestApp } from '../helpers/strapi';
import { createPlace } from '../helpers/content';
import { png, startMediaServer, type MediaServer } from '../helpers/media-server';
import {
  docs,
  HAPPENING,
  ICON,
  mark,
  PLACE,
  remoteCall,
  stateOf,
  TOUR,
  until,
  writes,
  remoteIdOf,
} from '../helpers/sync';

/**
 * Import (remote -> Strapi): an account that already has content becomes entries of the mapped
 * types, each linked to its object from the start, through the real emulator over HTTP and the
 * real Strapi. Bad remote data gets a reason and the rest goes on.
 */

let app: TestApp;
let media: MediaServer;
const ids: Record<string, number> = {};

const b64 = (b: Buffer) => b.toString('base64');

beforeAll(async () => {
  media = await startMediaServer({
    '/img/kiosk.png': await png(8, { r: 200, g: 10, b: 10 }),
    '/img/big.png': await png(400, { r: 1, g: 2, b: 3 }),
    '/notes.txt': { body: 'not an image', type: 'text/plain' },
    '/img/slow.png': { body: await png(8), type: 'image/png', delayMs: 4000 },
  });
  app = await startApp({
    emulator: { pageSize: 5 },
    patchConfig: (c) => {
      // Small enough that /img/big.png (a 400x400 PNG) is over it.
      c['location-content'].config.maxMediaBytes = 1500;
      // Shorter than /img/slow.png takes.
      c['location-content'].config.requestTimeoutMs = 1500;
      return c;
    },
  });
  const { emulator } = app;
  const icon = await png(6, { r: 0, g: 200, b: 0 });
  [ids.museum, ids.park] = emulator.seed('categories', [
    { name: 'Museum', image_file: { content: b64(icon), name: 'museum.png', type: 'image/png' } },
    { name: 'Park' },
  ]);
  [ids.hall, ids.kiosk, ids.noName, ids.offMap, ids.big, ids.broken, ids.text, ids.slow] =
    emulator.seed('pinpoints', [
      {
        name: 'Town hall',
        description: '<p>Open <strong>every</strong> day</p><ul><li>Guided tours</li></ul>',
        address: '1 Place du Commerce',
        latitude: 47.2184,
        longitude: -1.5536,
        tags: ['history', 'architecture'],
        category: ids.museum,
        media_credits: '© City',
        media_file: { content: b64(icon), name: 'hall.png', type: 'image/png' },
      },
      { name: 'Kiosk', latitude: 47.2, longitude: -1.55, category: ids.park },
      { name: 'Soon nameless', latitude: 47.21, longitude: -1.56 },
      { name: 'Off the map', latitude: 47.22, longitude: -1.57 },
      { name: 'Big picture', latitude: 47.23, longitude: -1.58 },
      { name: 'Broken link', latitude: 47.24, longitude: -1.59 },
      { name: 'Text file', latitude: 47.25, longitude: -1.6 },
      { name: 'Slow server', latitude: 47.26, longitude: -1.61 },
    ]);
  // What an account may hold from older rules or other clients.
  emulator.tamper('pinpoints', ids.noName, { name: '  ' });
  emulator.tamper('pinpoints', ids.offMap, { latitude: 95.5 });
  emulator.tamper('pinpoints', ids.kiosk, { media_url: `${media.url}/img/kiosk.png` });
  emulator.tamper('pinpoints', ids.big, { media_url: `${media.url}/img/big.png` });
  emulator.tamper('pinpoints', ids.broken, { media_url: `${media.url}/img/missing.png` });
  emulator.tamper('pinpoints', ids.text, { media_url: `${media.url}/notes.txt` });
  emulator.tamper('pinpoints', ids.slow, { media_url: `${media.url}/img/slow.png` });
  [ids.concert, ids.lost, ids.reversed] = emulator.seed('events', [
    {
      name: 'Concert',
      description: '<p>Bring a <em>chair</em>.</p>',
      pinpoint: ids.hall,
      dates: [
        { start: '2026-07-01T18:00:00.000Z', end: '2026-07-01T20:00:00.000Z' },
        { start: '2026-07-02T18:00:00.000Z', end: '2026-07-02T20:00:00.000Z' },
      ],
    },
    {
      name: 'At a nameless place',
      pinpoint: ids.noName,
      dates: [{ start: '2026-08-01T10:00:00.000Z', end: '2026-08-01T11:00:00.000Z' }],
    },
    {
      name: 'Backwards',
      pinpoint: ids.kiosk,
      dates: [{ start: '2026-09-01T10:00:00.000Z', end: '2026-09-01T12:00:00.000Z' }],
    },
  ]);
  // Ends before it starts: imported as it is, but its entry cannot be pushed until fixed.
  emulator.tamper('events', ids.reversed, {
    dates: [{ start: '2026-09-01T12:00:00.000Z', end: '2026-09-01T10:00:00.000Z' }],
  });
  [ids.tour] = emulator.seed('lists', [
    { name: 'Old town', description: '<p>A <strong>walk</strong> through it</p>' },
  ]);
  await remoteCall(emulator, 'POST', `/v3.0/lists/${ids.tour}/pinpoints`, [
    { id: ids.hall },
    { id: ids.kiosk },
    { id: ids.offMap },
  ]);
  // An entry of the editors' own, pushed: its object is owned, never imported.
  const own = await createPlace(app.strapi, { title: 'Our cafe', geo: { lat: 47.3, lng: -1.5 } });
  await until(async () => (await stateOf(app, PLACE, own.documentId))?.status === 'synced');
  ids.own = await remoteIdOf(app, PLACE, own.documentId);
  await app.sync().inventory();
});

afterAll(async () => {
  await stopApp(app, { settle: true });
  await media?.stop();
});

const finished = async () => {
  const job = await until(
    async () => {
      const p: ImportProgress | null = await app.sync().importProgress();
      return p && p.state !== 'running' ? p : null;
    },
    'the import to finish',
    120_000
  );
  return job;
};

const POPULATE: Record<string, Record<string, true>> = {
  [PLACE]: { geo: true, cover: true, icon: true },
  [ICON]: { glyph: true },
  [HAPPENING]: { slots: true, place: true },
  [TOUR]: { stops: true },
};

/** The entry an object was imported into (its sync state names it). */
const entryOf = async (uid: string, remoteId: number, status: 'draft' | 'published' = 'draft') => {
  const states = await app.strapi.db
    .query('plugin::location-content.sync-state')
    .findMany({ where: { contentType: uid, remoteId } });
  expect(states).toHaveLength(1);
  const populate = POPULATE[uid];
  const entry = await docs(app.strapi, uid).findOne({
    documentId: states[0].entryDocumentId,
    ...(uid === PLACE ? { locale: 'en' } : {}),
    ...(uid === ICON ? {} : { status }),
    populate,
  });
  if (!entry) throw new Error(`no ${uid} entry is linked to remote ${remoteId}`);
  return { entry, state: states[0] };
};

test('the dry run says what each resource becomes, and writes nothing', async () => {
  const before = mark(app.emulator);
  const places = await docs(app.strapi, PLACE).count({});
  const plan: ImportPlan = await app.sync().import({ dryRun: true, samples: 10 });

  expect(plan.groups.map((g) => [g.resource, g.contentType, g.count, g.wouldFail])).toEqual([
    ['category', ICON, 2, 0],
    ['pinpoint', PLACE, 8, 2],
    ['event', HAPPENING, 3, 0],
    ['list', TOUR, 1, 0],
  ]);
  expect(plan.total).toBe(14);
  for (const g of plan.groups) expect(g.notImportable).toEqual([]);
  const pinpoints = plan.groups[1];
  const hall = pinpoints.samples.find((s) => s.remoteId === ids.hall);
  expect(hall?.data).toEqual({
    title: 'Town hall',
    body: [
      {
        type: 'paragraph',
        children: [
          { type: 'text', text: 'Open ' },
          { type: 'text', text: 'every', bold: true },
          { type: 'text', text: ' day' },
        ],
      },
      {
        type: 'list',
        format: 'unordered',
        children: [{ type: 'list-item', children: [{ type: 'text', text: 'Guided tours' }] }],
      },
    ],
    address: '1 Place du Commerce',
    geo: { lat: 47.2184, lng: -1.5536 },
    keywords: ['history', 'architecture'],
    credits: '© City',
    cover: expect.stringMatching(/^download http:\/\/127\.0\.0\.1:\d+\/images\//),
    icon: `the entry of category ${ids.museum}`,
  });
  expect(pinpoints.samples.find((s) => s.remoteId === ids.noName)?.problems).toEqual([
    'it has no name',
  ]);
  expect(pinpoints.samples.find((s) => s.remoteId === ids.offMap)?.problems).toEqual([
    'latitude 95.5 is outside [-90, 90]',
  ]);
  expect(pinpoints.samples.some((s) => s.remoteId === ids.own)).toBe(false);
  const tour = plan.groups[3].samples[0];
  expect(tour.data.description).toBe('A **walk** through it');
  expect(plan.groups[2].samples[0].data.description).toBe('Bring a chair.');

  expect(writes(app.emulator, before)).toEqual([]);
  expect(await docs(app.strapi, PLACE).count({})).toBe(places);
});

test('the job imports in dependency order, links every entry, and reports bad data', async () => {
  const before = mark(app.emulator);
  const started = await app.sync().import({ locale: 'en' });
  expect(started.state).toBe('running');
  const job = await finished();
  expect(job.state).toBe('done');
  expect(job.byResource).toEqual({
    category: { total: 2, done: 2, failed: 0, skipped: 0 },
    pinpoint: { total: 8, done: 6, failed: 2, skipped: 0 },
    event: { total: 3, done: 2, failed: 1, skipped: 0 },
    list: { total: 1, done: 1, failed: 0, skipped: 0 },
  });
  const issue = (id: number) => job.issues.find((i) => i.remoteId === id);
  expect(issue(ids.noName)).toMatchObject({ imported: false, reason: 'it has no name' });
  expect(issue(ids.offMap)?.reason).toMatch(/latitude 95.5 is outside/);
  expect(issue(ids.lost)?.reason).toMatch(
    new RegExp(`its pinpoint was not imported: pinpoint ${ids.noName} has no entry`)
  );
  expect(issue(ids.big)).toMatchObject({ imported: true });
  expect(issue(ids.big)?.reason).toMatch(/over the 1500-byte limit/);
  expect(issue(ids.broken)?.reason).toMatch(/answered HTTP 404/);
  expect(issue(ids.text)?.reason).toMatch(/text\/plain, not an accepted media type/);
  expect(issue(ids.slow)).toMatchObject({ imported: true });
  expect(issue(ids.slow)?.reason).toMatch(/did not answer within 1500 ms/);
  expect(issue(ids.tour)?.reason).toMatch(
    new RegExp(`1 of its 3 pinpoints have no entry and are left out: ${ids.offMap}`)
  );
  expect(issue(ids.reversed)).toMatchObject({ imported: true });
  expect(issue(ids.reversed)?.reason).toMatch(/as imported it cannot be pushed \(.*before start/);
  expect(job.issueCount).toBe(9);

  // Reading only: no object was created, changed or deleted on the remote.
  expect(writes(app.emulator, before)).toEqual([]);
  const gets = app.emulator.requests({ since: before }).map((r) => r.path);
  expect(gets.some((p) => p.startsWith('/v3.0/events?pinpoint='))).toBe(true);

  const { entry: museum, state: museumState } = await entryOf(ICON, ids.museum);
  expect(museum.label).toBe('Museum');
  expect(museum.glyph?.mime).toBe('image/png');
  // No draft & publish: live at once, and synced.
  expect(museumState.status).toBe('synced');

  const { entry: hall, state: hallState } = await entryOf(PLACE, ids.hall);
  expect(hall.publishedAt).toBeNull();
  expect(hallState.status).toBe('imported');
  expect(hallState.payloadHash).toEqual(expect.any(String));
  expect(hall).toMatchObject({
    title: 'Town hall',
    address: '1 Place du Commerce',
    keywords: ['history', 'architecture'],
    credits: '© City',
    geo: { lat: 47.2184, lng: -1.5536 },
    icon: { documentId: museum.documentId },
  });
  expect(hall.cover?.mime).toBe('image/png');
  const { entry: kiosk } = await entryOf(PLACE, ids.kiosk);
  expect(kiosk.cover?.name).toMatch(/kiosk/);
  expect(media.hits).toEqual(
    expect.arrayContaining(['/img/kiosk.png', '/img/big.png', '/img/missing.png', '/notes.txt'])
  );
  const { entry: big } = await entryOf(PLACE, ids.big);
  expect(big.cover).toBeNull();

  const { entry: concert } = await entryOf(HAPPENING, ids.concert);
  expect(concert.place?.documentId).toBe(hall.documentId);
  expect(concert.description).toBe('Bring a chair.');
  expect(concert.slots.map((s: { from: string; to: string }) => [s.from, s.to])).toEqual([
    ['2026-07-01T18:00:00.000Z', '2026-07-01T20:00:00.000Z'],
    ['2026-07-02T18:00:00.000Z', '2026-07-02T20:00:00.000Z'],
  ]);
  const { entry: tour } = await entryOf(TOUR, ids.tour);
  expect(tour.description).toBe('A **walk** through it');
  expect(tour.stops.map((s: { documentId: string }) => s.documentId).sort()).toEqual(
    [hall.documentId, kiosk.documentId].sort()
  );
});

test('publishing imported entries unchanged calls nothing; an edited one is a PUT to its object', async () => {
  const { entry: hall } = await entryOf(PLACE, ids.hall);
  const { entry: kiosk } = await entryOf(PLACE, ids.kiosk);
  const { entry: concert } = await entryOf(HAPPENING, ids.concert);
  const { entry: tour } = await entryOf(TOUR, ids.tour);
  const before = mark(app.emulator);
  await docs(app.strapi, PLACE).publish({ documentId: hall.documentId, locale: 'en' });
  await docs(app.strapi, PLACE).publish({ documentId: kiosk.documentId, locale: 'en' });
  await docs(app.strapi, HAPPENING).publish({ documentId: concert.documentId });
  await docs(app.strapi, TOUR).publish({ documentId: tour.documentId });
  await app.sync().idle();
  expect(writes(app.emulator, before)).toEqual([]);
  for (const [uid, id] of [
    [PLACE, ids.hall],
    [PLACE, ids.kiosk],
    [HAPPENING, ids.concert],
    [TOUR, ids.tour],
  ] as const)
    expect((await entryOf(uid, id)).state.status).toBe('synced');

  const edited = mark(app.emulator);
  await docs(app.strapi, PLACE).update({
    documentId: kiosk.documentId,
    locale: 'en',
    data: { title: 'Kiosk (renamed)' },
  });
  await docs(app.strapi, PLACE).publish({ documentId: kiosk.documentId, locale: 'en' });
  await app.sync().idle();
  expect(writes(app.emulator, edited).map((r) => `${r.method} ${r.path}`)).toEqual([
    `PUT /v3.0/pinpoints/${ids.kiosk}`,
  ]);
  expect(app.emulator.state().pinpoints.find((p) => p.id === ids.kiosk)?.name).toBe(
    'Kiosk (renamed)'
  );
});

test('imported drafts stay linked through a resync, and a second import takes only what is still unowned', async () => {
  const before = mark(app.emulator);
  await app.sync().resync();
  await app.sync().idle({ timeoutMs: 120_000 });
  // The drafts' objects are not "gone online": nothing deletes them.
  expect(writes(app.emulator, before).filter((r) => r.method === 'DELETE')).toEqual([]);
  expect((await entryOf(PLACE, ids.broken)).state.status).toBe('imported');

  const counts = async () => ({
    places: await docs(app.strapi, PLACE).count({}),
    icons: await docs(app.strapi, ICON).count({}),
    happenings: await docs(app.strapi, HAPPENING).count({}),
    tours: await docs(app.strapi, TOUR).count({}),
  });
  const was = await counts();
  const plan: ImportPlan = await app.sync().import({ dryRun: true });
  expect(plan.groups.map((g) => g.count)).toEqual([0, 2, 1, 0]);
  await app.sync().import({ locale: 'en' });
  const again = await finished();
  expect(again.counts).toMatchObject({ done: 0, failed: 3 });
  expect(await counts()).toEqual(was);
});
