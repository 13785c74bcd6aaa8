/**
 * An account with media, imported by a Strapi that is stuck, then killed (-9), in the middle of an
 * object. A second instance on the same database, started while the first lives, leaves it the job
 * (its lease's heartbeat) and resumes it once the first is dead: every object is imported exactly
 * once (one entry and one sync state each, no entry without its state), with reads only.
 *
 * The kill lands where a resume has the most to mend, chosen rather than polled for: the app's
 * own document middleware (written into the test's app folder) holds the import's create of one
 * place with a file: its file downloaded, its documentId and its state kept, its entry not written.
 *
 * Strapi runs in a child process (tests/helpers/strapi-child.ts) so that it can be SIGKILLed; the
 * emulator and the media server run here, in jest's process, and survive the kill.
 */
jest.setTimeout(600_000);
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { startEmulator, type EmulatorHandle } from '../../emulator/src';
import { makeAppDir, removeDir } from '../helpers/app-dir';
import { startChildApp, type ChildApp } from '../helpers/child-app';
import { png, startMediaServer, type MediaServer } from '../helpers/media-server';
import { until } from '../helpers/sync';

const CATEGORIES = 6;
// Three pages of the import (50 objects each, the last one short): the kill falls in the second.
const PINPOINTS = 110;
const EVENTS = 40;
const LISTS = 10;
const TOTAL = CATEGORIES + PINPOINTS + EVENTS + LISTS;
const MEDIA_EVERY = 10;
const WITH_MEDIA = PINPOINTS / MEDIA_EVERY;

let emu: EmulatorHandle;
let media: MediaServer;
let appDir: string;
const apps: ChildApp[] = [];

const progress = (app: ChildApp) =>
  app.run(async (strapi) => strapi.plugin('location-content').service('sync').importProgress());

/** Who holds the import's lease, and until when (ms since the epoch). */
const lease = async (app: ChildApp) => {
  const row = await app.run(async (strapi) =>
    strapi.db
      .query('plugin::location-content.lease')
      .findOne({ where: { name: 'import' }, select: ['owner', 'slot'] })
  );
  return { owner: String(row.owner), slot: Number(row.slot) };
};

/** Holds, until the kill, the create of the place titled LC_HOLD_TITLE before Strapi writes it. */
const HOLDING_APP = `module.exports = {
  register({ strapi }) {
    const title = process.env.LC_HOLD_TITLE;
    if (!title) return;
    strapi.documents.use(async (ctx, next) => {
      if (ctx.uid === 'api::place.place' && ctx.action === 'create' && ctx.params?.data?.title === title) {
        process.stdout.write('lc-test: holding ' + title + '\\n');
        await new Promise(() => undefined);
      }
      return next();
    });
  },
  bootstrap() {},
};
`;

/** Starts Strapi on the app folder; with `title`, the app holds the import's create of that place. */
const startHeld = async (title?: string) => {
  const config = { rateLimit: { requestsPerSecond: 2_000, concurrency: 4 } };
  const env: Record<string, string> = title ? { LC_HOLD_TITLE: title } : {};
  const app = await startChildApp({ appDir, emulator: emu, patch: { config }, env });
  apps.push(app);
  return app;
};

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
  await writeFile(path.join(appDir, 'src', 'index.js'), HOLDING_APP);
});

afterAll(async () => {
  for (const a of apps) await a.kill('SIGKILL').catch(() => undefined);
  await emu?.stop();
  await media?.stop();
  if (appDir) await removeDir(appDir);
});

test('kill -9 mid-import, mid-object: after a restart each object is imported exactly once', async () => {
  const seqBefore = emu.requests().at(-1)?.seq ?? 0;
  const first = await startHeld('Place 70');
  await first.run(async (strapi) => {
    if (strapi.db.dialect.client === 'sqlite')
      await strapi.db.connection.raw('PRAGMA journal_mode = WAL');
    return null;
  });
  await first.run(async (strapi) =>
    strapi.plugin('location-content').service('sync').import({ locale: 'en' })
  );
  await until(
    () => first.output.join('').includes('lc-test: holding Place 70\n'),
    'the import to reach Place 70',
    300_000
  );
  // Killed mid-pinpoints, mid-object: its documentId and its state kept, its entry not written.
  const atKill = await first.run(async (strapi) => {
    const planned = await strapi.db
      .query('plugin::location-content.import-item')
      .findMany({ where: { status: 'planned' }, select: ['name', 'entryDocumentId'] });
    const linked = await strapi.db.query('plugin::location-content.sync-state').findMany({
      where: {
        entryDocumentId: {
          $in: planned.map((p: { entryDocumentId: string }) => p.entryDocumentId),
        },
      },
      select: ['status'],
    });
    const entries = await strapi.db
      .query('api::place.place')
      .count({ where: { title: 'Place 70' } });
    return { planned, linked, entries };
  });
  expect((await progress(first)).byResource).toMatchObject({
    category: { done: CATEGORIES },
    pinpoint: { done: 70 },
  });
  expect(atKill.planned).toEqual([{ name: 'Place 70', entryDocumentId: expect.any(String) }]);
  expect(atKill.linked).toEqual([{ status: 'imported' }]);
  expect(atKill.entries).toBe(0);

  // A second instance beside the live one, stuck as it is in one object: the first's heartbeat
  // keeps the job, past the hold the second met at its boot and its try when that ran out.
  const held = await lease(first);
  const second = await startHeld();
  const seen = await lease(second);
  await until(
    async () => (await lease(second)).slot > seen.slot,
    'the first to renew its hold',
    60_000,
    250
  );
  await until(() => Date.now() > seen.slot + 1_000, "the second's try after that hold");
  expect(await lease(second)).toMatchObject({ owner: held.owner });
  expect((await progress(second)).byResource.pinpoint).toMatchObject({ done: 70 });
  const unchanged = await second.run(async (strapi) =>
    strapi.db.query('plugin::location-content.import-item').count({ where: { status: 'planned' } })
  );
  expect(unchanged).toBe(1);
  await first.kill('SIGKILL');

  // Nobody starts the import again: the live instance resumes it once the dead one's hold runs out.
  const job = await until(
    async () => {
      const p = await progress(second);
      return p?.state === 'done' || p?.state === 'failed' ? p : null;
    },
    'the resumed import to finish',
    600_000,
    // Four times a second: each look is a function compiled and run in the child beside the job.
    250
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
      entries[uid] = [...new Set(rows.map((r: { documentId: string }) => r.documentId))];
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
  // The half-made place was finished under the documentId kept before the kill.
  expect(entries['api::place.place']).toContain(atKill.planned[0].entryDocumentId);
  // Place 70's file, downloaded before the kill while its entry was not made, is the one the
  // resume used: one file per media URL, none left unreferenced in the Media Library.
  expect(files).toBe(WITH_MEDIA + CATEGORIES);
  // Reads only, whatever the kill interrupted.
  const written = emu
    .requests({ since: seqBefore })
    .filter((r) => r.method !== 'GET' && !r.path.startsWith('/v3.0/oauth2/'));
  expect(written).toEqual([]);
});
