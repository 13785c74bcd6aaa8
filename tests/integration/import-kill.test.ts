/**
 * A 3,000-object account with media, imported by a Strapi that is killed (-9) in the middle, then
 * restarted on the same database: the job resumes by itself and every object is imported exactly
 * once (one entry and one sync state each, no entry without its state), with reads only.
 *
 * Strapi runs in a child process (tests/helpers/strapi-child.js) so that it can be SIGKILLed; the
 * emulator and the media server run here, in jest's process, and survive the kill.
 */
jest.setTimeout(process.env.LC_TEST_DB && process.env.LC_TEST_DB !== 'sqlite' ? 900_000 : 600_000);
import { startEmulator, type EmulatorHandle } from '../../emulator/src';
import { makeAppDir, removeDir } from '../helpers/app-dir';
import { startChildApp, type ChildApp } from '../helpers/child-app';
import { png, startMediaServer, type MediaServer } from '../helpers/media-server';
import { until } from '../helpers/sync';

const CATEGORIES = 60;
const PINPOINTS = 2_200;
const EVENTS = 600;
const LISTS = 140;
const TOTAL = CATEGORIES + PINPOINTS + EVENTS + LISTS;
const MEDIA_EVERY = 10;
const WITH_MEDIA = PINPOINTS / MEDIA_EVERY;

let emu: EmulatorHandle;
let media: MediaServer;
let appDir: string;
const apps: ChildApp[] = [];

const progress = (app: ChildApp) =>
  app.run(async (strapi) => strapi.plugin('location-content').service('sync').importProgress());

beforeAll(async () => {
  const files: Record<string, Buffer> = {};
  for (let i = 0; i < WITH_MEDIA; i++)
    files[`/img/${i}.png`] = await png(8, { r: i % 256, g: (i * 7) % 256, b: 90 });
  for (let i = 0; i < CATEGORIES; i++)
    files[`/icons/${i}.png`] = await png(6, { r: 30, g: (i * 4) % 256, b: 30 });
  media = await startMediaServer(files);
  emu = await startEmulator({ strict: true, pageSize: 50, requestLogSize: 100_000 });
  const categories = emu.seed(
    'categories',
    Array.from({ length: CATEGORIES }, (_, i) => ({ name: `Category ${i}` }))
  );
  categories.forEach((id, i) =>
    emu.tamper('categories', id, { image_url: `${media.url}/icons/${i}.png` })
  );
  const pinpoints = emu.seed(
    'pinpoints',
    Array.from({ length: PINPOINTS }, (_, i) => ({
      name: `Place ${i}`,
      description: `<p>Place <em>${i}</em></p>`,
      latitude: 30 + i / 10_000,
      longitude: 2 + i / 10_000,
      tags: [`t${i % 13}`],
      category: categories[i % CATEGORIES],
    }))
  );
  for (let i = 0; i < WITH_MEDIA; i++)
    emu.tamper('pinpoints', pinpoints[i * MEDIA_EVERY], {
      media_url: `${media.url}/img/${i}.png`,
    });
  emu.seed(
    'events',
    Array.from({ length: EVENTS }, (_, i) => ({
      name: `Event ${i}`,
      pinpoint: pinpoints[(i * 3) % PINPOINTS],
      dates: [{ start: '2026-10-01T10:00:00.000Z', end: '2026-10-01T12:00:00.000Z' }],
    }))
  );
  const lists = emu.seed(
    'lists',
    Array.from({ length: LISTS }, (_, i) => ({ name: `Tour ${i}` }))
  );
  const { access_token } = emu.issueToken();
  for (const [k, list] of lists.entries())
    await fetch(`${emu.baseUrl}/v3.0/lists/${list}/pinpoints`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${access_token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify(pinpoints.slice(k * 10, k * 10 + 10).map((id) => ({ id }))),
    });
  appDir = await makeAppDir();
});

afterAll(async () => {
  for (const a of apps) await a.kill('SIGKILL').catch(() => undefined);
  await emu?.stop();
  await media?.stop();
  if (appDir) await removeDir(appDir);
});

test('kill -9 mid-import of 3,000 objects: after a restart each object is imported exactly once', async () => {
  const config = { rateLimit: { requestsPerSecond: 2_000, concurrency: 4 } };
  const seqBefore = emu.requests().at(-1)?.seq ?? 0;
  const first = await startChildApp({ appDir, emulator: emu, patch: { config } });
  apps.push(first);
  await first.run(async (strapi) => {
    if ((strapi.db as any).dialect.client === 'sqlite')
      await strapi.db.connection.raw('PRAGMA journal_mode = WAL');
    return null;
  });
  await first.run(async (strapi) =>
    strapi.plugin('location-content').service('sync').import({ locale: 'en' })
  );
  const t0 = Date.now();
  // Killed while pinpoints are being imported: categories done, most of the rest to come.
  await until(
    async () => ((await progress(first))?.byResource.pinpoint.done ?? 0) >= 300,
    'part of the pinpoints to be imported',
    400_000
  );
  // Then killed while an object is half made: its documentId kept, its entry maybe not created yet.
  await until(
    () =>
      first.run(async (strapi) =>
        strapi.db
          .query('plugin::location-content.import-item')
          .count({ where: { status: 'planned' } })
      ),
    'an object to be under way',
    60_000
  );
  await first.kill('SIGKILL');
  const atKill = await until(() => true, 'nothing', 1).then(() => Date.now() - t0);

  const second = await startChildApp({ appDir, emulator: emu, patch: { config } });
  apps.push(second);
  // Nobody starts the import again: the restart resumes it.
  const job = await until(
    async () => {
      const p = await progress(second);
      return p?.state === 'done' || p?.state === 'failed' ? p : null;
    },
    'the resumed import to finish',
    600_000
  );
  expect(job.error).toBeNull();
  expect(job.counts).toEqual({ total: TOTAL, done: TOTAL, failed: 0, skipped: 0 });

  const found = await second.run(async (strapi) => {
    const states = await strapi.db.query('plugin::location-content.sync-state').findMany({
      select: ['contentType', 'entryDocumentId', 'entryLocale', 'resource', 'remoteId', 'status'],
    });
    const entries: Record<string, string[]> = {};
    for (const uid of [
      'api::icon.icon',
      'api::place.place',
      'api::happening.happening',
      'api::tour.tour',
    ]) {
      const rows = await strapi.db.query(uid).findMany({ select: ['documentId'] });
      entries[uid] = [...new Set(rows.map((r: any) => r.documentId))] as string[];
    }
    return { states, entries, files: await strapi.db.query('plugin::upload.file').count({}) };
  });
  const { states, entries, files } = found as {
    states: Array<{
      contentType: string;
      entryDocumentId: string;
      resource: string;
      remoteId: number;
      status: string;
    }>;
    entries: Record<string, string[]>;
    files: number;
  };
  expect(states).toHaveLength(TOTAL);
  for (const [resource, n, uid] of [
    ['category', CATEGORIES, 'api::icon.icon'],
    ['pinpoint', PINPOINTS, 'api::place.place'],
    ['event', EVENTS, 'api::happening.happening'],
    ['list', LISTS, 'api::tour.tour'],
  ] as const) {
    const mine = states.filter((s) => s.resource === resource);
    // Each remote object once, each entry once: no entry without its state, no state without its entry.
    expect(new Set(mine.map((s) => Number(s.remoteId))).size).toBe(n);
    expect(new Set(mine.map((s) => s.entryDocumentId))).toEqual(new Set(entries[uid]));
    expect(entries[uid]).toHaveLength(n);
  }
  // A file downloaded just before the kill, whose entry was not made yet, is downloaded again.
  expect(files).toBeGreaterThanOrEqual(WITH_MEDIA + CATEGORIES);
  expect(files).toBeLessThanOrEqual(WITH_MEDIA + CATEGORIES + 1);
  // Reads only, whatever the kill interrupted.
  const written = emu
    .requests({ since: seqBefore })
    .filter((r) => r.method !== 'GET' && !r.path.startsWith('/v3.0/oauth2/'));
  expect(written).toEqual([]);
  console.info(
    `import of ${TOTAL} objects killed after ${Math.round(atKill / 1000)} s, resumed and finished ${Math.round((Date.now() - t0) / 1000)} s after the start`
  );
});
