jest.setTimeout(120_000);
import { promises as fs } from 'node:fs';
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
} from '../helpers/sync';

/** What each field becomes on the remote, under both PUT modes, and what a push costs. */
let app: TestApp;

beforeAll(async () => {
  app = await startApp();
});

afterAll(() => stopApp(app));

describe.each(['merge', 'replace'] as const)('PUT mode %s', (putMode) => {
  beforeAll(() => app.emulator.configure({ putMode }));
  afterAll(() => app.emulator.configure({ putMode: 'merge' }));

  test('a field cleared in Strapi is cleared on the remote', async () => {
    const { strapi } = app;
    const { file: glyph } = await uploadImage(strapi, `glyph-${putMode}.png`, 8);
    const icon = await createIcon(strapi, `Icon ${putMode}`, glyph.id);
    const { file: cover } = await uploadImage(strapi, `cover-${putMode}.png`, 12);
    const place = await createPlace(strapi, {
      title: `Full ${putMode}`,
      body: blocks('Some text'),
      address: '2 Quay',
      keywords: ['a', 'b'],
      credits: '© Someone',
      cover: cover.id,
      icon: icon.documentId,
    });
    const happening = await createHappening(strapi, {
      title: `Event ${putMode}`,
      description: 'Details',
      slots: [{ from: '2026-08-01T10:00:00Z' }],
      place: place.documentId,
    });
    const tour = await createTour(strapi, {
      name: `Tour ${putMode}`,
      description: '**Bold** walk',
    });
    await app.sync().idle();
    const full = await remoteOf(app, PLACE, place.documentId);
    expect(full).toMatchObject({
      description: expect.stringContaining('Some text'),
      address: '2 Quay',
      tags: ['a', 'b'],
      media_credits: '© Someone',
      media_url: expect.any(String),
    });
    expect(full.category).toEqual(expect.any(Number));
    expect((await remoteOf(app, HAPPENING, happening.documentId)).description).toContain('Details');
    expect((await remoteOf(app, TOUR, tour.documentId)).description).toContain(
      '<strong>Bold</strong>'
    );
    expect((await remoteOf(app, ICON, icon.documentId)).image_url).toEqual(expect.any(String));

    await docs(strapi, PLACE).update({
      documentId: place.documentId,
      data: { body: null, address: null, keywords: null, credits: null, cover: null, icon: null },
    });
    await docs(strapi, PLACE).publish({ documentId: place.documentId });
    await docs(strapi, HAPPENING).update({
      documentId: happening.documentId,
      data: { description: null },
    });
    await docs(strapi, HAPPENING).publish({ documentId: happening.documentId });
    await docs(strapi, ICON).update({ documentId: icon.documentId, data: { glyph: null } });
    await docs(strapi, TOUR).update({ documentId: tour.documentId, data: { description: null } });
    await docs(strapi, TOUR).publish({ documentId: tour.documentId });
    await app.sync().idle();

    expect(await remoteOf(app, PLACE, place.documentId)).toMatchObject({
      id: full.id,
      name: `Full ${putMode}`,
      latitude: 48.85,
      longitude: 2.35,
      description: '',
      address: '',
      tags: [],
      media_credits: '',
      media_url: null,
      category: null,
    });
    expect(await stateOf(app, PLACE, place.documentId)).toMatchObject({
      status: 'synced',
      mediaUrl: null,
    });
    expect((await remoteOf(app, HAPPENING, happening.documentId)).description).toBe('');
    expect((await remoteOf(app, TOUR, tour.documentId)).description).toBe('');
    expect(await remoteOf(app, ICON, icon.documentId)).toMatchObject({
      name: `Icon ${putMode}`,
      image_url: null,
    });
  });
});

test('an unchanged media file is not read again; a push still carries it', async () => {
  const { strapi, emulator } = app;
  const { file: cover } = await uploadImage(strapi, 'kept.png', 14);
  const place = await createPlace(strapi, { title: 'Kept media', cover: cover.id });
  await app.sync().idle();
  expect(await stateOf(app, PLACE, place.documentId)).toMatchObject({
    status: 'synced',
    mediaUrl: expect.any(String),
  });

  // Without the file on disk, a publish that changes nothing still needs nothing from it.
  const onDisk = path.join(app.appDir, 'public', cover.url);
  const bytes = await fs.readFile(onDisk);
  await fs.rm(onDisk);
  const since = mark(emulator);
  await docs(strapi, PLACE).publish({ documentId: place.documentId });
  await app.sync().resync();
  await app.sync().idle();
  expect(writes(emulator, since)).toEqual([]);
  expect(await stateOf(app, PLACE, place.documentId)).toMatchObject({
    status: 'synced',
    lastError: null,
  });

  // A real change sends the payload with its media.
  await fs.writeFile(onDisk, bytes);
  await docs(strapi, PLACE).update({
    documentId: place.documentId,
    data: { title: 'Kept media 2' },
  });
  await docs(strapi, PLACE).publish({ documentId: place.documentId });
  await app.sync().idle();
  const [put] = writes(emulator, since);
  expect(put.method).toBe('PUT');
  expect((put.body as { media_file?: unknown }).media_file).toMatchObject({
    name: 'kept.png',
    type: 'image/png',
    content: expect.any(String),
  });
  const served = await fetch((await stateIn(app, PLACE, place.documentId)).mediaUrl!);
  expect(Buffer.from(await served.arrayBuffer()).equals(bytes)).toBe(true);
});

test('tags from a comma-separated text; relative links made absolute with server.url', async () => {
  const { strapi } = app;
  const place = await createPlace(strapi, { title: 'Beach', keywords: 'sea, sand\nsun, sea' });
  strapi.config.set('server.url', 'https://cms.example.org/');
  try {
    const tour = await createTour(strapi, {
      name: 'Coast',
      description: '![map](/uploads/map.png) and [more](/about)',
    });
    await app.sync().idle();
    expect((await remoteOf(app, PLACE, place.documentId)).tags).toEqual(['sea', 'sand', 'sun']);
    const description = (await remoteOf(app, TOUR, tour.documentId)).description;
    expect(description).toContain('src="https://cms.example.org/uploads/map.png"');
    expect(description).toContain('href="https://cms.example.org/about"');
  } finally {
    strapi.config.set('server.url', '');
  }
});
