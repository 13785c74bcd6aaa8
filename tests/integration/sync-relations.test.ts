jest.setTimeout(120_000);
import { startApp, type TestApp, stopApp } from '../helpers/strapi';
import { createIcon, createPlace, createTour } from '../helpers/content';
import {
  counts,
  docs,
  HAPPENING,
  ICON,
  mark,
  PLACE,
  remoteCall,
  remoteOf,
  stateOf,
  TOUR,
  until,
  writes,
  stateIn,
  remoteIdOf,
} from '../helpers/sync';

/** Order and relations: category -> pinpoint -> event / list, whatever order editors save in. */
let app: TestApp;

beforeAll(async () => {
  app = await startApp();
});

afterAll(() => stopApp(app));

const slots = [{ from: '2026-05-01T10:00:00.000Z', to: '2026-05-01T12:00:00.000Z' }];

test('a chain built from the end: list, then event, then pinpoint, then category ends complete', async () => {
  const { strapi, emulator } = app;
  // The place exists as a draft only, so the others can point at it.
  const place = await createPlace(
    strapi,
    { title: 'Harbour', geo: { lat: 43.3, lng: 5.37 } },
    { publish: false }
  );

  // 1. The list, published first: online at once, without members yet.
  const tour = await docs(strapi, TOUR).create({
    data: { name: 'Sea walk', stops: [place.documentId] },
  });
  await docs(strapi, TOUR).publish({ documentId: tour.documentId });
  await app.sync().idle();
  expect(await remoteOf(app, TOUR, tour.documentId)).toMatchObject({
    name: 'Sea walk',
    members: [],
  });

  // 2. The event: its pinpoint is not online, so it cannot be either.
  const happening = await docs(strapi, HAPPENING).create({
    data: { title: 'Regatta', slots, place: place.documentId },
  });
  await docs(strapi, HAPPENING).publish({ documentId: happening.documentId });
  await app.sync().idle();
  expect(emulator.state().events).toHaveLength(0);

  // 3. The pinpoint: the event and the list membership follow it.
  await docs(strapi, PLACE).publish({ documentId: place.documentId });
  await app.sync().idle();
  const pinpointId = await remoteIdOf(app, PLACE, place.documentId);
  expect(pinpointId).toEqual(expect.any(Number));
  expect(await remoteOf(app, HAPPENING, happening.documentId)).toMatchObject({
    name: 'Regatta',
    pinpoint: pinpointId,
    dates: [{ start: slots[0].from, end: slots[0].to }],
  });
  expect((await remoteOf(app, TOUR, tour.documentId)).members).toEqual([pinpointId]);

  // 4. The category, last: the pinpoint gets it.
  const icon = await createIcon(strapi, 'Boat');
  await docs(strapi, PLACE).update({
    documentId: place.documentId,
    data: { icon: icon.documentId },
  });
  await docs(strapi, PLACE).publish({ documentId: place.documentId });
  await app.sync().idle();
  const categoryId = await remoteIdOf(app, ICON, icon.documentId);
  expect(await remoteOf(app, PLACE, place.documentId)).toMatchObject({
    id: pinpointId,
    category: categoryId,
  });

  // Everything synced, one remote object each, nothing failed.
  for (const [uid, id] of [
    [PLACE, place.documentId],
    [HAPPENING, happening.documentId],
    [TOUR, tour.documentId],
    [ICON, icon.documentId],
  ]) {
    expect(await stateOf(app, uid, id)).toMatchObject({
      status: 'synced',
      queued: false,
      lastError: null,
    });
  }
  expect(counts(emulator)).toEqual({ pinpoints: 1, events: 1, categories: 1, lists: 1 });
  expect((await app.sync().status()).failed).toEqual([]);
});

test('a pinpoint waits for its category; the event and the list wait for the pinpoint', async () => {
  const { strapi, emulator } = app;
  // The category cannot be created for a while.
  emulator.setFaults({
    rules: [{ kind: 'status', status: 503, method: 'POST', pathPrefix: '/v3.0/categories' }],
  });
  const icon = await createIcon(strapi, 'Tower');
  const place = await createPlace(strapi, {
    title: 'Lookout',
    geo: { lat: 45, lng: 6 },
    icon: icon.documentId,
  });
  const happening = await docs(strapi, HAPPENING).create({
    data: { title: 'Sunrise', slots, place: place.documentId },
  });
  await docs(strapi, HAPPENING).publish({ documentId: happening.documentId });
  const tour = await docs(strapi, TOUR).create({
    data: { name: 'Heights', stops: [place.documentId] },
  });
  await docs(strapi, TOUR).publish({ documentId: tour.documentId });

  await until(
    async () => ((await stateOf(app, ICON, icon.documentId))?.attempts ?? 0) >= 2,
    'the category to fail twice'
  );
  await until(
    async () => /Waiting for/.test((await stateOf(app, PLACE, place.documentId))?.lastError ?? ''),
    'the pinpoint to wait'
  );
  const waiting = await stateIn(app, PLACE, place.documentId);
  expect(waiting).toMatchObject({ status: 'pending', remoteId: null });
  expect(waiting.lastError).toContain(icon.documentId);
  expect(emulator.state().pinpoints.find((p) => p.name === 'Lookout')).toBeUndefined();

  emulator.clearFaults();
  await app.sync().idle();
  const categoryId = await remoteIdOf(app, ICON, icon.documentId);
  const pinpoint = await remoteOf(app, PLACE, place.documentId);
  expect(pinpoint).toMatchObject({ name: 'Lookout', category: categoryId });
  expect(await remoteOf(app, HAPPENING, happening.documentId)).toMatchObject({
    pinpoint: pinpoint.id,
  });
  expect((await remoteOf(app, TOUR, tour.documentId)).members).toEqual([pinpoint.id]);
  // The emulator checks the category and pinpoint of every write: the order was right.
  expect(emulator.requests().filter((r) => r.status === 400)).toEqual([]);
});

test('removing a pinpoint takes its events with it; the state follows and they come back with it', async () => {
  const { strapi, emulator } = app;
  const place = await createPlace(strapi, { title: 'Old market', geo: { lat: 50, lng: 4 } });
  const happening = await docs(strapi, HAPPENING).create({
    data: { title: 'Fair', slots, place: place.documentId },
  });
  await docs(strapi, HAPPENING).publish({ documentId: happening.documentId });
  const tour = await docs(strapi, TOUR).create({
    data: { name: 'Markets', stops: [place.documentId] },
  });
  await docs(strapi, TOUR).publish({ documentId: tour.documentId });
  await app.sync().idle();
  const first = await stateIn(app, PLACE, place.documentId);
  const eventId = await remoteIdOf(app, HAPPENING, happening.documentId);
  expect(emulator.state().events.map((e) => e.id)).toContain(eventId);

  await docs(strapi, PLACE).unpublish({ documentId: place.documentId });
  await app.sync().idle();
  expect(emulator.state().pinpoints.map((p) => p.id)).not.toContain(first.remoteId);
  expect(emulator.state().events.map((e) => e.id)).not.toContain(eventId);
  // No state points at the deleted event; the reason is readable.
  const orphanEvent = await stateIn(app, HAPPENING, happening.documentId);
  expect(orphanEvent.remoteId).toBeNull();
  expect(orphanEvent.status).toBe('failed');
  expect(orphanEvent.lastError).toMatch(/pinpoint/);
  expect((await remoteOf(app, TOUR, tour.documentId)).members).toEqual([]);

  // Published again: a new pinpoint, and the event and membership follow without any other save.
  await docs(strapi, PLACE).publish({ documentId: place.documentId });
  await app.sync().idle();
  const second = await stateIn(app, PLACE, place.documentId);
  expect(second.remoteId).not.toBe(first.remoteId);
  expect(await remoteOf(app, HAPPENING, happening.documentId)).toMatchObject({
    name: 'Fair',
    pinpoint: second.remoteId,
  });
  expect((await remoteOf(app, TOUR, tour.documentId)).members).toEqual([second.remoteId]);

  // The happening moves to another place: a new event there when the old pinpoint goes.
  const other = await createPlace(strapi, { title: 'New market', geo: { lat: 50.1, lng: 4.1 } });
  await docs(strapi, PLACE).delete({ documentId: place.documentId });
  await app.sync().idle();
  expect((await stateOf(app, HAPPENING, happening.documentId))?.remoteId).toBeNull();
  await docs(strapi, HAPPENING).update({
    documentId: happening.documentId,
    data: { place: other.documentId },
  });
  await docs(strapi, HAPPENING).publish({ documentId: happening.documentId });
  await app.sync().idle();
  const otherId = await remoteIdOf(app, PLACE, other.documentId);
  const moved = await stateOf(app, HAPPENING, happening.documentId);
  expect(moved).toMatchObject({ status: 'synced', lastError: null });
  expect(await remoteOf(app, HAPPENING, happening.documentId)).toMatchObject({
    name: 'Fair',
    pinpoint: otherId,
  });
  expect(emulator.state().events.filter((e) => e.name === 'Fair')).toHaveLength(1);
});

describe('a list pushed again because of its members', () => {
  const calls = (since: number) =>
    writes(app.emulator, since).map((r) => `${r.method} ${r.path.replace(/\/\d+/g, '/:id')}`);

  test('when a member gets its remote id, makes the membership call only: no PUT of its unchanged name', async () => {
    const { strapi, emulator } = app;
    const first = await createPlace(strapi, { title: 'Pier', geo: { lat: 43.29, lng: 5.36 } });
    const later = await createPlace(
      strapi,
      { title: 'Fort', geo: { lat: 43.295, lng: 5.362 } },
      { publish: false }
    );
    const tour = await createTour(strapi, {
      name: 'Harbour walk',
      stops: [first.documentId, later.documentId],
    });
    await app.sync().idle();
    const listId = await remoteIdOf(app, TOUR, tour.documentId);

    const since = mark(emulator);
    await docs(strapi, PLACE).publish({ documentId: later.documentId });
    await app.sync().idle();
    expect(calls(since)).toEqual(['POST /v3.0/pinpoints', 'POST /v3.0/lists/:id/pinpoints']);
    expect(await remoteOf(app, TOUR, tour.documentId)).toMatchObject({
      id: listId,
      name: 'Harbour walk',
      members: [
        await remoteIdOf(app, PLACE, first.documentId),
        await remoteIdOf(app, PLACE, later.documentId),
      ].sort((a, b) => a - b),
    });
    expect(await stateOf(app, TOUR, tour.documentId)).toMatchObject({
      status: 'synced',
      lastError: null,
    });

    // Its own fields changed: one PUT, and no membership call (the members are the same).
    const renamed = mark(emulator);
    await docs(strapi, TOUR).update({ documentId: tour.documentId, data: { name: 'Port walk' } });
    await docs(strapi, TOUR).publish({ documentId: tour.documentId });
    await app.sync().idle();
    expect(calls(renamed)).toEqual(['PUT /v3.0/lists/:id']);
    expect((await remoteOf(app, TOUR, tour.documentId)).name).toBe('Port walk');
  });

  test('deleted on the remote meanwhile, is made again with all its members', async () => {
    const { strapi, emulator } = app;
    const first = await createPlace(strapi, { title: 'Dock', geo: { lat: 43.3, lng: 5.35 } });
    const later = await createPlace(
      strapi,
      { title: 'Lighthouse', geo: { lat: 43.31, lng: 5.34 } },
      { publish: false }
    );
    const tour = await createTour(strapi, {
      name: 'Coast walk',
      stops: [first.documentId, later.documentId],
    });
    await app.sync().idle();
    const gone = await remoteIdOf(app, TOUR, tour.documentId);
    expect((await remoteCall(emulator, 'DELETE', `/v3.0/lists/${gone}`)).status).toBe(204);

    await docs(strapi, PLACE).publish({ documentId: later.documentId });
    await app.sync().idle();
    const lists = emulator.state().lists.filter((l) => l.name === 'Coast walk');
    expect(lists).toHaveLength(1);
    expect(lists[0].id).not.toBe(gone);
    expect(lists[0].members).toEqual(
      [
        await remoteIdOf(app, PLACE, first.documentId),
        await remoteIdOf(app, PLACE, later.documentId),
      ].sort((a, b) => a - b)
    );
    expect(await stateOf(app, TOUR, tour.documentId)).toMatchObject({
      remoteId: lists[0].id,
      status: 'synced',
      lastError: null,
    });
  });
});
