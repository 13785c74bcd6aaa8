/**
 * "Preview payload": what an entry would send now, for its draft and its published version, through the
 * push's own mapping; media named instead of read; related entries without a remote id as "waits for";
 * mapping problems in words. Nothing reaches the remote.
 */
import { startApp, stopApp, type TestApp } from '../helpers/strapi';
import { blocks, createIcon, createPlace, uploadImage } from '../helpers/content';
import { docs, mark, PLACE, setPluginConfig } from '../helpers/sync';

let app: TestApp;

beforeAll(async () => {
  app = await startApp({ http: true });
});

afterAll(() => stopApp(app));

const preview = (documentId: string) => app.sync().previewOf({ contentType: PLACE, documentId });

test('draft and published side by side, field by field; the remote hears nothing', async () => {
  const { file } = await uploadImage(app.strapi, 'louvre.png');
  const place = await createPlace(app.strapi, {
    title: 'Louvre',
    body: blocks('The **museum**.'),
    keywords: ['museum', 'paris'],
    cover: file.id,
  });
  await app.sync().idle();
  await docs(app.strapi, PLACE).update({
    documentId: place.documentId,
    data: { title: 'Musée du Louvre' },
  });
  const since = mark(app.emulator);

  const [draft, published] = await preview(place.documentId);
  expect(draft).toMatchObject({ version: 'draft', problems: [], waitsFor: [], skipped: null });
  expect(published).toMatchObject({
    version: 'published',
    problems: [],
    waitsFor: [],
    skipped: null,
  });
  expect(draft.payload!.name).toBe('Musée du Louvre');
  expect(published.payload!.name).toBe('Louvre');
  expect(published.payload).toMatchObject({
    latitude: 48.85,
    longitude: 2.35,
    address: '1 Main St',
    tags: ['museum', 'paris'],
  });
  expect(published.payload!.description).toContain('<p>');
  expect(published.payload!.media_file).toEqual({
    name: 'louvre.png',
    mime: 'image/png',
    sizeKb: expect.any(Number),
  });
  expect(JSON.stringify(published.payload)).not.toMatch(/base64|data:image/);
  expect(app.emulator.requests({ since })).toEqual([]);
});

test('a category without a remote id is "waits for"; a mapping problem is said in words; nothing is sent', async () => {
  setPluginConfig(app.strapi, 'syncEnabled', false);
  const icon = await createIcon(app.strapi, 'Museum');
  const place = await createPlace(app.strapi, { title: 'Orsay', icon: icon.documentId });
  await docs(app.strapi, PLACE).update({ documentId: place.documentId, data: { geo: null } });
  const since = mark(app.emulator);

  const [draft, published] = await preview(place.documentId);
  expect(published.waitsFor).toEqual([
    {
      contentType: 'api::icon.icon',
      documentId: icon.documentId,
      locale: '',
      role: 'category',
      blocking: true,
    },
  ]);
  expect(draft.payload).toBeNull();
  expect(draft.problems).toEqual([
    { field: 'latitude', reason: 'empty field geo (Geo point) › lat' },
    { field: 'longitude', reason: 'empty field geo (Geo point) › lng' },
  ]);
  expect(app.emulator.requests({ since })).toEqual([]);
  setPluginConfig(app.strapi, 'syncEnabled', true);
});

test('an entry never published: the published side says why nothing is sent', async () => {
  const place = await createPlace(app.strapi, { title: 'Draft only' }, { publish: false });
  const [draft, published] = await preview(place.documentId);
  expect(draft.payload!.name).toBe('Draft only');
  expect(published).toEqual({
    version: 'published',
    payload: null,
    waitsFor: [],
    problems: [],
    skipped: 'not published: nothing is online',
  });
});
