jest.setTimeout(300_000);
import type { Core } from '@strapi/strapi';
import { png, startMediaServer, type MediaServer } from '../helpers/media-server';
import { startApp, stopApp, type TestApp } from '../helpers/strapi';
import { until } from '../helpers/sync';

/**
 * What the import does once and must not do twice, on the real Strapi and emulator: a resumed job
 * takes its lease once and renews it from one heartbeat; a file whose record on its import item
 * failed (a SQLite trigger refuses the write) is downloaded again once, and the Media Library
 * keeps no copy that nothing uses.
 */

let app: TestApp;
let media: MediaServer;
const SLOW = 40;

const importer = (strapi: Core.Strapi) => strapi.plugin('location-content').service('import');
const progress = () => app.sync().importProgress();

beforeAll(async () => {
  // Each download takes a while, so that the job lasts several of its heartbeats.
  media = await startMediaServer({
    '/img/slow.png': { body: await png(8), type: 'image/png', delayMs: 300 },
    '/img/fast.png': await png(8, { r: 250, g: 200, b: 0 }),
  });
  app = await startApp({ emulator: { pageSize: 20 } });
  const ids = app.emulator.seed(
    'pinpoints',
    Array.from({ length: SLOW }, (_, i) => ({
      name: `Slow ${i}`,
      latitude: 45 + i / 1000,
      longitude: 3 + i / 1000,
    }))
  );
  for (const id of ids)
    app.emulator.tamper('pinpoints', id, { media_url: `${media.url}/img/slow.png?${id}` });
});

afterAll(async () => {
  await stopApp(app);
  await media?.stop();
});

test('a resumed job takes its lease once and renews it from one heartbeat', async () => {
  const { strapi } = app;
  await app.sync().import({ locale: 'en' });
  await until(
    async () => ((await progress())?.byResource.pinpoint.done ?? 0) >= 3,
    'a few pinpoints to be imported'
  );
  // As a restart leaves it: stored as running, nobody running it.
  await importer(strapi).stop();
  expect((await progress())?.state).toBe('running');

  const table = strapi.db.metadata.get('plugin::location-content.lease').tableName;
  const holds: number[] = [];
  const onQuery = (q: { sql: string; bindings?: unknown[] }) => {
    const bindings = q.bindings ?? [];
    // A hold or a renewal moves the slot to a time to come; the release moves it to 0.
    if (/^update/i.test(q.sql) && q.sql.includes(table) && bindings.includes('import'))
      if (bindings.some((b) => typeof b === 'number' && b > 1e12)) holds.push(Date.now());
  };
  strapi.db.connection.on('query', onQuery);
  const from = Date.now();
  try {
    await importer(strapi).resume();
    // Two renewals' time (one every 2 s): the window only bounds the count from above.
    await new Promise((r) => setTimeout(r, 4_500));
  } finally {
    strapi.db.connection.off('query', onQuery);
  }
  expect((await progress())?.state).toBe('running');
  // No renewal comes before 2 s: one hold at the resume, not one by the resume and one by the run.
  expect(holds.filter((t) => t - from < 1_500)).toHaveLength(1);
  // One heartbeat: the hold and at most two renewals (two heartbeats would renew it four times).
  expect(holds.length).toBeGreaterThanOrEqual(2);
  expect(holds.length).toBeLessThanOrEqual(3);

  const done = await until(
    async () => {
      const p = await progress();
      return p?.state === 'done' || p?.state === 'failed' ? p : null;
    },
    'the resumed import to finish',
    120_000
  );
  expect(done.counts).toEqual({ total: SLOW, done: SLOW, failed: 0, skipped: 0 });
});

test('a file whose record on its item failed is neither left unused nor kept twice', async () => {
  const { strapi } = app;
  const ids = app.emulator.seed(
    'pinpoints',
    Array.from({ length: 3 }, (_, i) => ({ name: `Fast ${i}`, latitude: 46, longitude: 4 + i }))
  );
  for (const id of ids)
    app.emulator.tamper('pinpoints', id, { media_url: `${media.url}/img/fast.png?${id}` });
  const item = strapi.db.metadata.get('plugin::location-content.import-item');
  const remoteId = (item.attributes.remoteId as { columnName: string }).columnName;
  const knex = strapi.db.connection;
  // Any write of the second object's item that records a file fails, until the triggers go.
  for (const event of ['INSERT', 'UPDATE'])
    await knex.raw(
      `CREATE TRIGGER lc_f_${event} BEFORE ${event} ON ${item.tableName}
       WHEN NEW.${remoteId} = ${ids[1]} AND NEW.files LIKE '%:%'
       BEGIN SELECT RAISE(ABORT, 'injected: the item write failed'); END`
    );
  const ended = async () => {
    const p = await progress();
    return p?.state === 'done' || p?.state === 'failed' ? p : null;
  };
  try {
    await app.sync().import({ locale: 'en' });
    const failed = await until(ended, 'the import to stop on the failed write', 120_000);
    expect(failed.state).toBe('failed');
    expect(failed.error).toMatch(/injected/);
    // The database's words, not the statement with the item's values.
    expect(failed.error).not.toMatch(/update|insert|files/i);
  } finally {
    for (const event of ['INSERT', 'UPDATE'])
      await knex.raw(`DROP TRIGGER IF EXISTS lc_f_${event}`);
  }
  // Started again, the job resumes where it failed.
  await app.sync().import({ locale: 'en' });
  const done = await until(ended, 'the resumed import to finish', 120_000);
  expect(done.state).toBe('done');
  expect(done.byResource.pinpoint.failed).toBe(0);

  // One file per media URL, each used by the place it was imported into.
  const files = (await strapi.db
    .query('plugin::upload.file')
    .findMany({ populate: { related: true } })) as Array<{ related: Array<{ __type: string }> }>;
  expect(files).toHaveLength(SLOW + ids.length);
  for (const file of files) expect(file.related.map((r) => r.__type)).toContain('api::place.place');
});
