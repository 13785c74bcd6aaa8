jest.setTimeout(120_000);
import type { SyncStatusReport } from '../../shared/contracts/sync';
import { startApp, type TestApp, stopApp } from '../helpers/strapi';
import { createHappening, createIcon, createPlace, createTour } from '../helpers/content';
import {
  docs,
  HAPPENING,
  ICON,
  mark,
  PLACE,
  remoteOf,
  stateOf,
  TOUR,
  writes,
  stateIn,
  remoteIdOf,
} from '../helpers/sync';

/** The draft & publish, delete and locale rules of the issue, one remote object per (entry, locale). */
let app: TestApp;

beforeAll(async () => {
  app = await startApp();
  await app.strapi.plugin('i18n').service('locales').create({ code: 'fr', name: 'French (fr)' });
});

afterAll(() => stopApp(app));

test('drafts never leak: creating, editing and discarding a draft make no remote call', async () => {
  const { strapi, emulator } = app;
  const since = mark(emulator);
  const place = await createPlace(strapi, { title: 'Never published' }, { publish: false });
  await docs(strapi, PLACE).update({
    documentId: place.documentId,
    data: { title: 'Still a draft' },
  });
  const happening = await createHappening(
    strapi,
    { title: 'Draft event', slots: [{ from: '2026-01-01T10:00:00Z' }] },
    { publish: false }
  );
  const tour = await createTour(strapi, { name: 'Draft tour' }, { publish: false });
  await app.sync().idle();
  expect(writes(emulator, since)).toEqual([]);
  expect(await stateOf(app, PLACE, place.documentId)).toBeNull();
  expect(await stateOf(app, HAPPENING, happening.documentId)).toBeNull();
  expect(await stateOf(app, TOUR, tour.documentId)).toBeNull();

  // A published entry: a draft edit and a discarded draft leave the remote as it is.
  await docs(strapi, PLACE).publish({ documentId: place.documentId });
  await app.sync().idle();
  const online = await remoteOf(app, PLACE, place.documentId);
  expect(online.name).toBe('Still a draft');
  const after = mark(emulator);
  await docs(strapi, PLACE).update({
    documentId: place.documentId,
    data: { title: 'Edited draft' },
  });
  await docs(strapi, PLACE).discardDraft({ documentId: place.documentId });
  await app.sync().idle();
  expect(writes(emulator, after)).toEqual([]);
  expect((await remoteOf(app, PLACE, place.documentId)).name).toBe('Still a draft');

  // Publishing with `status: 'published'` in one update call is a publish too.
  await docs(strapi, PLACE).update({
    documentId: place.documentId,
    data: { title: 'Published in one call' },
    status: 'published',
  });
  await app.sync().idle();
  expect((await remoteOf(app, PLACE, place.documentId)).name).toBe('Published in one call');
});

test('unpublish and delete remove events and lists too', async () => {
  const { strapi, emulator } = app;
  const place = await createPlace(strapi, { title: 'Venue', geo: { lat: 1, lng: 1 } });
  const happening = await createHappening(strapi, {
    title: 'Gig',
    slots: [{ from: '2026-03-01T20:00:00Z', to: '2026-03-01T22:00:00Z' }],
    place: place.documentId,
  });
  const tour = await createTour(strapi, { name: 'Loop', stops: [place.documentId] });
  await app.sync().idle();
  const eventId = await remoteIdOf(app, HAPPENING, happening.documentId);
  const listId = await remoteIdOf(app, TOUR, tour.documentId);
  expect(emulator.state().events.map((e) => e.id)).toContain(eventId);
  expect(emulator.state().lists.map((l) => l.id)).toContain(listId);

  await docs(strapi, HAPPENING).unpublish({ documentId: happening.documentId });
  await docs(strapi, TOUR).unpublish({ documentId: tour.documentId });
  await app.sync().idle();
  expect(emulator.state().events.map((e) => e.id)).not.toContain(eventId);
  expect(emulator.state().lists.map((l) => l.id)).not.toContain(listId);
  expect(await stateOf(app, HAPPENING, happening.documentId)).toBeNull();
  expect(await stateOf(app, TOUR, tour.documentId)).toBeNull();
  // The pinpoint does not go with its list.
  expect(await remoteOf(app, PLACE, place.documentId)).toBeDefined();

  await docs(strapi, TOUR).publish({ documentId: tour.documentId });
  await app.sync().idle();
  const again = await stateIn(app, TOUR, tour.documentId);
  expect(again).toMatchObject({ status: 'synced' });
  expect(again.remoteId).not.toBe(listId);
  expect((await remoteOf(app, TOUR, tour.documentId)).members).toEqual([
    await remoteIdOf(app, PLACE, place.documentId),
  ]);

  await docs(strapi, TOUR).delete({ documentId: tour.documentId });
  await app.sync().idle();
  expect(emulator.state().lists.map((l) => l.id)).not.toContain(again.remoteId);
  expect(await stateOf(app, TOUR, tour.documentId)).toBeNull();
});

test('each locale is its own pinpoint: publish, unpublish and delete per locale, "*" removes all', async () => {
  const { strapi, emulator } = app;
  const place = await createPlace(strapi, { title: 'Bridge', keywords: ['river'] });
  await app.sync().idle();
  const en = await stateIn(app, PLACE, place.documentId, 'en');
  expect(en).toMatchObject({ status: 'synced', locale: 'en' });

  // Creating the fr localization (a draft) changes nothing remote; publishing it creates a second pinpoint.
  const since = mark(emulator);
  await docs(strapi, PLACE).update({
    documentId: place.documentId,
    locale: 'fr',
    data: { title: 'Pont', keywords: ['rivière'] },
  });
  await app.sync().idle();
  expect(writes(emulator, since)).toEqual([]);
  await docs(strapi, PLACE).publish({ documentId: place.documentId, locale: 'fr' });
  await app.sync().idle();
  const fr = await stateIn(app, PLACE, place.documentId, 'fr');
  expect(fr).toMatchObject({ status: 'synced', locale: 'fr' });
  expect(fr.remoteId).not.toBe(en.remoteId);
  expect(await remoteOf(app, PLACE, place.documentId, 'fr')).toMatchObject({
    name: 'Pont',
    tags: ['rivière'],
    latitude: 48.85,
  });
  expect(await remoteOf(app, PLACE, place.documentId, 'en')).toMatchObject({
    name: 'Bridge',
    tags: ['river'],
  });

  // Unpublishing fr leaves en online.
  await docs(strapi, PLACE).unpublish({ documentId: place.documentId, locale: 'fr' });
  await app.sync().idle();
  expect(await stateOf(app, PLACE, place.documentId, 'fr')).toBeNull();
  expect(emulator.state().pinpoints.map((p) => p.id)).not.toContain(fr.remoteId);
  expect(emulator.state().pinpoints.map((p) => p.id)).toContain(en.remoteId);

  await docs(strapi, PLACE).publish({ documentId: place.documentId, locale: 'fr' });
  await app.sync().idle();
  const fr2 = await stateIn(app, PLACE, place.documentId, 'fr');
  expect(fr2.status).toBe('synced');

  await docs(strapi, PLACE).delete({ documentId: place.documentId, locale: '*' });
  await app.sync().idle();
  const ids = emulator.state().pinpoints.map((p) => p.id);
  expect(ids).not.toContain(en.remoteId);
  expect(ids).not.toContain(fr2.remoteId);
  expect(await stateOf(app, PLACE, place.documentId, 'en')).toBeNull();
  expect(await stateOf(app, PLACE, place.documentId, 'fr')).toBeNull();
});

test('without draft & publish (Icon) create and update push; delete orphans the category and says so', async () => {
  const { strapi, emulator } = app;
  const icon = await createIcon(strapi, 'Fountain');
  await app.sync().idle();
  const s = await stateIn(app, ICON, icon.documentId);
  expect(s).toMatchObject({ status: 'synced', resource: 'category' });
  expect(await remoteOf(app, ICON, icon.documentId)).toMatchObject({ name: 'Fountain' });

  await docs(strapi, ICON).update({
    documentId: icon.documentId,
    data: { label: 'Water fountain' },
  });
  await app.sync().idle();
  expect(await remoteOf(app, ICON, icon.documentId)).toMatchObject({
    id: s.remoteId,
    name: 'Water fountain',
  });

  // A place using it carries the category; when the icon goes, the place loses it on the remote as well.
  const place = await createPlace(strapi, { title: 'Square', icon: icon.documentId });
  await app.sync().idle();
  expect((await remoteOf(app, PLACE, place.documentId)).category).toBe(s.remoteId);

  const since = mark(emulator);
  await docs(strapi, ICON).delete({ documentId: icon.documentId });
  await app.sync().idle();
  // The contract has no category delete: nothing is attempted, the state says why.
  expect(writes(emulator, since).filter((r) => r.path.startsWith('/v3.0/categories'))).toEqual([]);
  const orphan = await stateIn(app, ICON, icon.documentId);
  expect(orphan).toMatchObject({ status: 'orphaned', remoteId: s.remoteId });
  expect(orphan.lastError).toMatch(/no delete for categories/);
  const report: SyncStatusReport = await app.sync().status();
  expect(report.counts.orphaned).toBeGreaterThanOrEqual(1);
  expect(report.byContentType.find((t) => t.contentType === ICON)?.counts.orphaned).toBe(1);
  expect((await remoteOf(app, PLACE, place.documentId)).category).toBeNull();
});
