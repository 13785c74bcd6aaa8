jest.setTimeout(120_000);
import type { Entry, Mapping } from '../../server/src/config/types';
import type { MappingView } from '../../shared/contracts/mappings';
import { startApp, type TestApp, stopApp } from '../helpers/strapi';
import { createHappening, createPlace, createTour } from '../helpers/content';
import {
  docs,
  HAPPENING,
  ICON,
  PLACE,
  remoteOf,
  stateOf,
  TOUR,
  stateIn,
  remoteIdOf,
} from '../helpers/sync';

/**
 * The general case of the mapping, with a config other than the playground's: coordinates from
 * one GeoJSON value built by a transform (from a field the map does not name), tags from the names
 * of entries of a type that is not mapped (tours here), event dates from a JSON array, event tags
 * read through its mapped pinpoint, and transforms that skip or fail.
 */
let app: TestApp;

beforeAll(async () => {
  app = await startApp({
    patchConfig: (config) => {
      const lc = config['location-content'].config;
      lc.mappings = [
        {
          contentType: PLACE,
          resource: 'pinpoint',
          fields: {
            name: 'title',
            coordinates: 'location',
            tags: { path: 'tours', key: 'name' },
            media_credits: 'credits',
            category: 'icon',
          },
          transform: (entry: Entry) => {
            if (entry.title === 'BOOM') throw new Error('no place may be called BOOM');
            if (entry.title.startsWith('PRIVATE')) return null;
            // GeoJSON is longitude first; the third value is the altitude.
            return {
              ...entry,
              location: entry.geo
                ? { type: 'Point', coordinates: [entry.geo.lng, entry.geo.lat, 35] }
                : null,
            };
          },
        },
        {
          contentType: HAPPENING,
          resource: 'event',
          fields: {
            name: 'title',
            dates: 'schedule',
            pinpoint: 'place',
            tags: { path: 'place', key: 'title' },
          },
          transform: (entry: Entry) => ({
            ...entry,
            schedule: (entry.slots ?? []).map((s: { from: string; to?: string }) => ({
              start: s.from,
              end: s.to,
            })),
          }),
        },
        // Tours are not mapped here: the pinpoints only read their names.
        ...lc.mappings.filter((m: Mapping) => m.contentType === ICON),
      ];
      return config;
    },
  });
});

afterAll(() => stopApp(app));

test('the mappings are active (the validator accepts paths a transform adds)', async () => {
  const views: MappingView[] = app.strapi.plugin('location-content').service('mappings').list();
  expect(views.map((v) => [v.contentType, v.active, v.problems])).toEqual([
    [PLACE, true, []],
    [HAPPENING, true, []],
    [ICON, true, []],
  ]);
});

test('coordinates from one GeoJSON value built by a transform; tags from names of an unmapped related type', async () => {
  const { strapi } = app;
  const place = await createPlace(strapi, {
    title: 'Summit',
    geo: { lat: 45.83, lng: 6.86 },
    credits: 'Alpine club',
  });
  const north = await createTour(strapi, { name: 'North face', stops: [place.documentId] });
  await createTour(strapi, { name: 'Ridge', stops: [place.documentId] });
  await app.sync().idle();
  const pinpoint = await remoteOf(app, PLACE, place.documentId);
  expect(pinpoint).toMatchObject({
    name: 'Summit',
    latitude: 45.83,
    longitude: 6.86,
    altitude: 35,
    media_credits: 'Alpine club',
  });
  expect([...pinpoint.tags].sort()).toEqual(['North face', 'Ridge']);

  expect(app.emulator.state().lists).toEqual([]);

  // Renaming a related entry changes the tags: the pinpoint follows without being saved.
  await docs(strapi, TOUR).update({ documentId: north.documentId, data: { name: 'North wall' } });
  await docs(strapi, TOUR).publish({ documentId: north.documentId });
  await app.sync().idle();
  expect([...(await remoteOf(app, PLACE, place.documentId)).tags].sort()).toEqual([
    'North wall',
    'Ridge',
  ]);

  await docs(strapi, TOUR).unpublish({ documentId: north.documentId });
  await app.sync().idle();
  expect((await remoteOf(app, PLACE, place.documentId)).tags).toEqual(['Ridge']);
});

test('event dates from a JSON array, sent in ms UTC; tags read through the mapped pinpoint follow it', async () => {
  const { strapi } = app;
  const place = await createPlace(strapi, { title: 'Hall', geo: { lat: 52.52, lng: 13.4 } });
  const happening = await createHappening(strapi, {
    title: 'Concert',
    slots: [
      { from: '2026-12-31T22:00:00+01:00', to: '2027-01-01T01:30:00.5+01:00' },
      { from: '2027-01-01T20:00:00Z' },
    ],
    place: place.documentId,
  });
  await app.sync().idle();
  const event = await remoteOf(app, HAPPENING, happening.documentId);
  expect(event).toMatchObject({
    name: 'Concert',
    pinpoint: await remoteIdOf(app, PLACE, place.documentId),
    tags: ['Hall'],
    dates: [
      { start: '2026-12-31T21:00:00.000Z', end: '2027-01-01T00:30:00.500Z' },
      { start: '2027-01-01T20:00:00.000Z', end: '2027-01-01T20:00:00.000Z' },
    ],
  });
  const post = app.emulator.requests({ method: 'POST', pathPrefix: '/v3.0/events' }).at(-1);
  expect((post?.body as { dates: unknown[] }).dates[0]).toEqual({
    start: '2026-12-31T21:00:00.000Z',
    end: '2027-01-01T00:30:00.500Z',
  });

  // The place is renamed: its pinpoint changes, and the event that reads its title follows.
  await docs(strapi, PLACE).update({
    documentId: place.documentId,
    data: { title: 'Concert hall' },
  });
  await docs(strapi, PLACE).publish({ documentId: place.documentId });
  await app.sync().idle();
  expect((await remoteOf(app, HAPPENING, happening.documentId)).tags).toEqual(['Concert hall']);
});

test('a transform returning null keeps the entry off the remote, and takes it off when it turns null', async () => {
  const { strapi, emulator } = app;
  const hidden = await createPlace(strapi, { title: 'PRIVATE garden' });
  const shown = await createPlace(strapi, { title: 'Public garden', geo: { lat: 1, lng: 1 } });
  const happening = await createHappening(strapi, {
    title: 'Tea',
    slots: [{ from: '2026-06-06T16:00:00Z' }],
    place: shown.documentId,
  });
  await app.sync().idle();
  expect(await stateOf(app, PLACE, hidden.documentId)).toBeNull();
  expect(emulator.state().pinpoints.find((p) => p.name === 'PRIVATE garden')).toBeUndefined();
  const pinpointId = await remoteIdOf(app, PLACE, shown.documentId);
  const eventId = await remoteIdOf(app, HAPPENING, happening.documentId);

  await docs(strapi, PLACE).update({
    documentId: shown.documentId,
    data: { title: 'PRIVATE now' },
  });
  await docs(strapi, PLACE).publish({ documentId: shown.documentId });
  await app.sync().idle();
  expect(emulator.state().pinpoints.map((p) => p.id)).not.toContain(pinpointId);
  expect(emulator.state().events.map((e) => e.id)).not.toContain(eventId);
  expect(await stateOf(app, PLACE, shown.documentId)).toBeNull();
  // The happening still points at the (published) place, which is not online: it waits for it.
  expect(await stateOf(app, HAPPENING, happening.documentId)).toMatchObject({
    remoteId: null,
    status: 'pending',
  });

  await docs(strapi, PLACE).update({
    documentId: shown.documentId,
    data: { title: 'Public again' },
  });
  await docs(strapi, PLACE).publish({ documentId: shown.documentId });
  await app.sync().idle();
  const back = await remoteIdOf(app, PLACE, shown.documentId);
  expect(await remoteOf(app, HAPPENING, happening.documentId)).toMatchObject({
    name: 'Tea',
    pinpoint: back,
  });
});

test('a transform that throws fails the entry with its message', async () => {
  const { strapi } = app;
  const place = await createPlace(strapi, { title: 'BOOM' });
  await app.sync().idle();
  const s = await stateIn(app, PLACE, place.documentId);
  expect(s.status).toBe('failed');
  expect(s.lastError).toMatch(/transform failed: no place may be called BOOM/);
});
