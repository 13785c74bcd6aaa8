jest.setTimeout(300_000);
import { startEmulator, type EmulatorHandle } from '../../emulator/src';
import { startApp, stopApp, type TestApp } from '../helpers/strapi';
import { png, startMediaServer, type MediaServer } from '../helpers/media-server';
import { docs, HAPPENING, ICON, PLACE, TOUR, until, writes } from '../helpers/sync';
import { removeDir } from '../helpers/app-dir';

/**
 * A hundred and sixty objects, with media served on 127.0.0.1, imported by a job that Strapi's stop
 * interrupts: after the restart the job goes on by itself, and every object is imported exactly
 * once (one entry, one sync state, one file per media URL).
 */

const CATEGORIES = 8;
const PINPOINTS = 120;
const EVENTS = 30;
const LISTS = 4;
const TOTAL = CATEGORIES + PINPOINTS + EVENTS + LISTS;
const WITH_MEDIA = PINPOINTS / 6;

let emulator: EmulatorHandle;
let media: MediaServer;
let app: TestApp | undefined;
let appDir: string | undefined;

beforeAll(async () => {
  const files: Record<string, Buffer> = {};
  for (let i = 0; i < WITH_MEDIA; i++)
    files[`/img/${i}.png`] = await png(8, { r: i * 5, g: 100, b: 200 - i * 3 });
  for (let i = 0; i < CATEGORIES; i++)
    files[`/icons/${i}.png`] = await png(6, { r: 10, g: i * 20, b: 10 });
  media = await startMediaServer(files);
  emulator = await startEmulator({ strict: true, pageSize: 20, requestLogSize: 50_000 });
  const categories = emulator.seed(
    'categories',
    Array.from({ length: CATEGORIES }, (_, i) => ({ name: `Category ${i}` }))
  );
  categories.forEach((id, i) =>
    emulator.tamper('categories', id, { image_url: `${media.url}/icons/${i}.png` })
  );
  const pinpoints = emulator.seed(
    'pinpoints',
    Array.from({ length: PINPOINTS }, (_, i) => ({
      name: `Place ${i}`,
      description: `<p>Place <strong>${i}</strong></p>`,
      latitude: 40 + i / 1000,
      longitude: 2 + i / 1000,
      tags: [`t${i % 7}`],
      category: categories[i % CATEGORIES],
    }))
  );
  for (let i = 0; i < WITH_MEDIA; i++)
    emulator.tamper('pinpoints', pinpoints[i * 6], { media_url: `${media.url}/img/${i}.png` });
  emulator.seed(
    'events',
    Array.from({ length: EVENTS }, (_, i) => ({
      name: `Event ${i}`,
      pinpoint: pinpoints[(i * 7) % PINPOINTS],
      dates: [
        {
          start: `2026-09-${String((i % 28) + 1).padStart(2, '0')}T10:00:00.000Z`,
          end: `2026-09-${String((i % 28) + 1).padStart(2, '0')}T12:00:00.000Z`,
        },
      ],
    }))
  );
  const lists = emulator.seed(
    'lists',
    Array.from({ length: LISTS }, (_, i) => ({ name: `Tour ${i}` }))
  );
  const { access_token } = emulator.issueToken();
  for (const [k, list] of lists.entries())
    await fetch(`${emulator.baseUrl}/v3.0/lists/${list}/pinpoints`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${access_token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify(pinpoints.slice(k * 10, k * 10 + 10).map((id) => ({ id }))),
    });
});

afterAll(async () => {
  await stopApp(app, { settle: true });
  if (appDir) await removeDir(appDir);
  await emulator?.stop();
  await media?.stop();
});

test('a restart mid-import resumes the job, and each object is imported exactly once', async () => {
  app = await startApp({ emulatorHandle: emulator });
  appDir = app.appDir;
  const before = emulator.requests().at(-1)?.seq ?? 0;
  await app.sync().import({ locale: 'en' });
  // Stopped part of the way through the pinpoints: categories done, the rest to come.
  const cut = await until(
    async () => {
      const progress = await app!.sync().importProgress();
      return (progress?.byResource.pinpoint.done ?? 0) >= 40 ? progress : null;
    },
    'part of the pinpoints to be imported',
    120_000
  );
  expect(cut.state).toBe('running');
  expect(cut.counts.done).toBeLessThan(TOTAL);
  const stopped = app;
  app = undefined;
  await stopped.stop();
  app = await startApp({ emulatorHandle: emulator, appDir: stopped.appDir });
  const job = await until(
    async () => {
      const p = await app!.sync().importProgress();
      return p?.state === 'done' || p?.state === 'failed' ? p : null;
    },
    'the resumed import to finish',
    240_000
  );
  expect(job.error).toBeNull();
  expect(job.id).toBe(cut.id);
  expect(job.counts).toEqual({ total: TOTAL, done: TOTAL, failed: 0, skipped: 0 });
  expect(job.issues).toEqual([]);

  const { strapi } = app;
  // One sync state per remote object, each naming an entry that exists, and no other entries.
  const states: Array<{ resource: string; remoteId: number; entryDocumentId: string }> =
    await strapi.db.query('plugin::location-content.sync-state').findMany({});
  expect(states).toHaveLength(TOTAL);
  const byResource = (r: string) => states.filter((s) => s.resource === r);
  for (const [resource, n] of [
    ['category', CATEGORIES],
    ['pinpoint', PINPOINTS],
    ['event', EVENTS],
    ['list', LISTS],
  ] as const) {
    const mine = byResource(resource);
    expect(new Set(mine.map((s) => Number(s.remoteId))).size).toBe(n);
  }
  expect(await docs(strapi, ICON).count({})).toBe(CATEGORIES);
  expect(await docs(strapi, PLACE).count({ locale: 'en' })).toBe(PINPOINTS);
  expect(await docs(strapi, HAPPENING).count({})).toBe(EVENTS);
  expect(await docs(strapi, TOUR).count({})).toBe(LISTS);
  const placeIds = new Set(
    (await docs(strapi, PLACE).findMany({ locale: 'en', fields: ['documentId'], limit: 1000 })).map(
      (p: { documentId: string }) => p.documentId
    )
  );
  expect(new Set(byResource('pinpoint').map((s) => s.entryDocumentId))).toEqual(placeIds);
  // One file per media URL: none downloaded into the library twice.
  expect(await strapi.db.query('plugin::upload.file').count({})).toBe(WITH_MEDIA + CATEGORIES);
  // Reads only.
  expect(writes(emulator, before)).toEqual([]);
});
