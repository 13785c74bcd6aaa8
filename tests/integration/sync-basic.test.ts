import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { startApp, type TestApp, stopApp } from '../helpers/strapi';
import {
  blocks,
  createHappening,
  createIcon,
  createPlace,
  createTour,
  uploadImage,
} from '../helpers/content';

let app: TestApp;

beforeAll(async () => {
  app = await startApp();
});

afterAll(() => stopApp(app));

const state = (uid: string, documentId: string, locale?: string) =>
  app.sync().stateOf({ contentType: uid, documentId, locale });

test('a published place becomes a pinpoint with its fields, media and category', async () => {
  const { strapi, emulator } = app;
  const { file: glyph } = await uploadImage(strapi, 'glyph.png', 8);
  const icon = await createIcon(strapi, 'Museum', glyph.id);
  const { file: cover } = await uploadImage(strapi, 'cover.png', 20);
  const bytes = await readFile(path.join(app.appDir, 'public', cover.url));
  const place = await createPlace(strapi, {
    title: '  Louvre  ',
    body: blocks('A <b>big</b> museum'),
    keywords: ['art', 'museum', 'art'],
    credits: '© Photo',
    cover: cover.id,
    icon: icon.documentId,
  });
  await app.sync().idle();

  const s = await state('api::place.place', place.documentId);
  expect(s).toMatchObject({ status: 'synced', queued: false, lastError: null });
  const remote = emulator.state();
  const pinpoint = remote.pinpoints.find((p) => p.id === s?.remoteId)!;
  const category = remote.categories[0];
  expect(remote.categories).toHaveLength(1);
  expect(category.name).toBe('Museum');
  expect(pinpoint).toMatchObject({
    name: 'Louvre',
    latitude: 48.85,
    longitude: 2.35,
    address: '1 Main St',
    tags: ['art', 'museum'],
    media_credits: '© Photo',
    category: category.id,
  });
  expect(pinpoint.description).toContain('&lt;b&gt;big&lt;/b&gt;');
  expect(s?.mediaUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\//);
  const media = await fetch(s!.mediaUrl!);
  expect(media.headers.get('content-type')).toBe('image/png');
  expect(Buffer.from(await media.arrayBuffer()).equals(bytes)).toBe(true);
});

test('a draft save changes nothing remote; publish updates; unpublish and delete remove', async () => {
  const { strapi, emulator } = app;
  const place = await createPlace(strapi, { title: 'Draft test' });
  await app.sync().idle();
  const { remoteId } = (await state('api::place.place', place.documentId))!;
  const calls = emulator.requests().length;

  await strapi.documents('api::place.place').update({
    documentId: place.documentId,
    data: { title: 'Draft only' } as Record<string, unknown>,
  });
  await app.sync().idle();
  expect(emulator.requests().length).toBe(calls);
  expect(emulator.state().pinpoints.find((p) => p.id === remoteId)!.name).toBe('Draft test');

  await strapi.documents('api::place.place').publish({ documentId: place.documentId });
  await app.sync().idle();
  expect(emulator.state().pinpoints.find((p) => p.id === remoteId)!.name).toBe('Draft only');
  expect((await state('api::place.place', place.documentId))!.remoteId).toBe(remoteId);

  await strapi.documents('api::place.place').unpublish({ documentId: place.documentId });
  await app.sync().idle();
  expect(emulator.state().pinpoints.find((p) => p.id === remoteId)).toBeUndefined();
  expect(await state('api::place.place', place.documentId)).toBeNull();

  await strapi.documents('api::place.place').publish({ documentId: place.documentId });
  await app.sync().idle();
  const again = await state('api::place.place', place.documentId);
  expect(again!.status).toBe('synced');
  await strapi.documents('api::place.place').delete({ documentId: place.documentId });
  await app.sync().idle();
  expect(emulator.state().pinpoints.find((p) => p.id === again!.remoteId)).toBeUndefined();
});

test('happenings become events on their pinpoint; tours become lists with their members', async () => {
  const { strapi, emulator } = app;
  const a = await createPlace(strapi, { title: 'Stop A', geo: { lat: 10, lng: 10 } });
  const b = await createPlace(strapi, { title: 'Stop B', geo: { lat: 11, lng: 11 } });
  const h = await createHappening(strapi, {
    title: 'Concert',
    description: 'Line 1\nLine 2',
    slots: [{ from: '2026-06-01T18:00:00+02:00', to: '2026-06-01T20:00:00+02:00' }],
    place: a.documentId,
  });
  const t = await createTour(strapi, {
    name: 'Walk',
    description: '# Title\n\n*nice*',
    stops: [a.documentId, b.documentId],
  });
  await app.sync().idle();

  const pa = (await state('api::place.place', a.documentId))!.remoteId;
  const pb = (await state('api::place.place', b.documentId))!.remoteId;
  const eventId = (await state('api::happening.happening', h.documentId))!.remoteId;
  const ev = emulator.state().events.find((e) => e.id === eventId)!;
  expect(ev).toMatchObject({
    pinpoint: pa,
    dates: [{ start: '2026-06-01T16:00:00.000Z', end: '2026-06-01T18:00:00.000Z' }],
  });
  const listState = (await state('api::tour.tour', t.documentId))!;
  const list = emulator.state().lists.find((l) => l.id === listState.remoteId)!;
  expect(list.name).toBe('Walk');
  expect(list.description).toContain('<h1>Title</h1>');
  expect([...list.members].sort()).toEqual([pa, pb].sort());

  // Remove one stop: only the difference goes out.
  emulator.clearRequests();
  await strapi.documents('api::tour.tour').update({
    documentId: t.documentId,
    data: { stops: [a.documentId] } as Record<string, unknown>,
  });
  await strapi.documents('api::tour.tour').publish({ documentId: t.documentId });
  await app.sync().idle();
  expect(emulator.state().lists.find((l) => l.id === listState.remoteId)!.members).toEqual([pa]);
  const membershipCalls = emulator
    .requests()
    .filter((r) => r.path.endsWith('/pinpoints') && r.path.includes('/lists/'));
  expect(membershipCalls.map((r) => r.method)).toEqual(['DELETE']);
});
