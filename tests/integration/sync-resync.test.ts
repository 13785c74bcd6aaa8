jest.setTimeout(120_000);
import type { Modules } from '@strapi/strapi';
import type { EntryKey, SyncStatusReport } from '../../shared/contracts/sync';
import { startApp, type TestApp, stopApp } from '../helpers/strapi';
import { createHappening, createIcon, createPlace, createTour } from '../helpers/content';
import {
  counts,
  docs,
  HAPPENING,
  ICON,
  mark,
  PLACE,
  remoteOf,
  setPluginConfig,
  stateOf,
  TOUR,
  until,
  writes,
  remoteIdOf,
} from '../helpers/sync';

/** Resync: a background job with progress, a dry run, and nothing written when nothing changed. */
let app: TestApp;
type Entry = Modules.Documents.AnyDocument;
const places: Entry[] = [];
const happenings: Entry[] = [];
const tours: Entry[] = [];

beforeAll(async () => {
  app = await startApp({
    patchConfig: (config) => {
      config['location-content'].config.retry = { baseMs: 20, maxMs: 100, maxAttempts: 3 };
      return config;
    },
  });
  const { strapi } = app;
  const icons = [await createIcon(strapi, 'Icon A'), await createIcon(strapi, 'Icon B')];
  for (let i = 0; i < 25; i++)
    places.push(
      await createPlace(strapi, {
        title: `Place ${i}`,
        geo: { lat: i, lng: -i },
        icon: icons[i % 2].documentId,
      })
    );
  for (let i = 0; i < 5; i++) {
    happenings.push(
      await createHappening(strapi, {
        title: `Happening ${i}`,
        slots: [{ from: `2026-10-0${i + 1}T10:00:00Z` }],
        place: places[i].documentId,
      })
    );
  }
  for (let i = 0; i < 3; i++)
    tours.push(
      await createTour(strapi, {
        name: `Tour ${i}`,
        stops: places.slice(i * 3, i * 3 + 3).map((p) => p.documentId),
      })
    );
  await app.sync().idle();
});

afterAll(() => stopApp(app));

const resyncDone = () =>
  until(async () => {
    const p = (await app.sync().status()).resync;
    return p?.state === 'done' ? p : undefined;
  }, 'the resync to finish');

test('a resync where nothing changed makes no write call and counts everything skipped', async () => {
  const { emulator } = app;
  const since = mark(emulator);
  const started = await app.sync().resync();
  expect(started).toMatchObject({ state: 'running', dryRun: false });
  await app.sync().idle();
  const progress = await resyncDone();
  expect(progress).toMatchObject({
    id: started.id,
    total: 35,
    done: 0,
    failed: 0,
    skipped: 35,
    etaMs: 0,
  });
  expect(progress.finishedAt).toEqual(expect.any(String));
  expect(writes(emulator, since)).toEqual([]);
});

test('the dry run returns the plan and touches nothing; the resync does it and counts each entry once', async () => {
  const { strapi, emulator } = app;
  // Changes the plugin cannot have seen: straight into the database, and while the sync is off.
  await strapi.db.query(PLACE).updateMany({
    where: { documentId: places[0].documentId },
    data: { title: 'Place 0 renamed' },
  });
  await strapi.db
    .query(PLACE)
    .updateMany({ where: { documentId: places[1].documentId }, data: { title: '' } });
  await strapi.db.query(PLACE).updateMany({
    where: { documentId: places[2].documentId },
    data: { title: 'Place 2 renamed' },
  });
  await strapi.db.query(HAPPENING).deleteMany({ where: { documentId: happenings[4].documentId } });
  setPluginConfig(strapi, 'syncEnabled', false);
  const fresh = await createPlace(strapi, { title: 'Fresh', geo: { lat: 60, lng: 10 } });
  const depth = (await app.sync().status()).queue.depth;

  const since = mark(emulator);
  const plan = await app.sync().resync({ dryRun: true });
  const keys = (list: EntryKey[]) =>
    list.map((k) => `${k.contentType}|${k.documentId}|${k.locale}`).sort();
  expect(keys(plan.update)).toEqual(
    keys([
      { contentType: PLACE, documentId: places[0].documentId, locale: 'en' },
      { contentType: PLACE, documentId: places[2].documentId, locale: 'en' },
    ])
  );
  expect(keys(plan.create)).toEqual([`${PLACE}|${fresh.documentId}|en`]);
  expect(keys(plan.delete)).toEqual([`${HAPPENING}|${happenings[4].documentId}|`]);
  expect(plan.failed).toEqual([
    expect.objectContaining({
      contentType: PLACE,
      documentId: places[1].documentId,
      reason: expect.stringMatching(/name/),
    }),
  ]);
  expect(plan.unchanged).toBe(31);
  expect(writes(emulator, since)).toEqual([]);
  expect((await app.sync().status()).queue.depth).toBe(depth);

  // Place 2's update will keep failing until the worker gives up: a failure, counted once.
  const place2 = await remoteIdOf(app, PLACE, places[2].documentId);
  emulator.setFaults({
    rules: [
      { kind: 'status', status: 503, method: 'PUT', pathPrefix: `/v3.0/pinpoints/${place2}` },
    ],
  });
  try {
    const job = await app.sync().resync();
    await until(
      async () => (await app.sync().status()).resync?.total === 36,
      'every entry to be listed'
    );
    setPluginConfig(strapi, 'syncEnabled', true);
    await app.sync().idle();
    const progress = await resyncDone();
    // 26 places, 4 happenings and the state of the deleted one, 3 tours, 2 icons; the fresh place's row was already
    // waiting and now counts for the job. Done: place 0, the fresh place, the deleted happening.
    expect(progress).toMatchObject({ id: job.id, total: 36, done: 3, failed: 2, skipped: 31 });
    expect(progress.done + progress.failed + progress.skipped).toBe(progress.total);
  } finally {
    emulator.clearFaults();
    setPluginConfig(strapi, 'syncEnabled', true);
  }
  expect(await remoteOf(app, PLACE, places[0].documentId)).toMatchObject({
    name: 'Place 0 renamed',
  });
  expect(await remoteOf(app, PLACE, fresh.documentId)).toMatchObject({ name: 'Fresh' });
  expect(await stateOf(app, HAPPENING, happenings[4].documentId)).toBeNull();

  const report: SyncStatusReport = await app.sync().status();
  const failed = Object.fromEntries(report.failed.map((f) => [f.documentId, f]));
  expect(failed[places[1].documentId]).toMatchObject({
    contentType: PLACE,
    locale: 'en',
    resource: 'pinpoint',
    reason: expect.stringMatching(/name.*empty/),
  });
  expect(failed[places[2].documentId]).toMatchObject({
    contentType: PLACE,
    locale: 'en',
    reason: expect.stringMatching(/Gave up after 3 attempts/),
  });
  expect(report.counts).toMatchObject({ synced: 33, failed: 2, pending: 0 });
  expect(report.byContentType.find((t) => t.contentType === HAPPENING)?.counts.synced).toBe(4);
  expect(report.byContentType.find((t) => t.contentType === TOUR)?.counts.synced).toBe(3);
  expect(report.queue).toMatchObject({ depth: 0, inFlight: 0 });
  expect(counts(emulator)).toMatchObject({ pinpoints: 26, events: 4, categories: 2, lists: 3 });
});

test('a resync while another is running returns the running one', async () => {
  const { strapi } = app;
  setPluginConfig(strapi, 'syncEnabled', false);
  try {
    const first = await app.sync().resync();
    const second = await app.sync().resync();
    expect(second.id).toBe(first.id);
  } finally {
    setPluginConfig(strapi, 'syncEnabled', true);
  }
  await app.sync().idle();
  await resyncDone();
});

test('idle() waits for pending and in-flight work only', async () => {
  const { strapi, emulator } = app;
  emulator.setFaults({
    rules: [{ kind: 'latency', latencyMs: 300, pathPrefix: '/v3.0/pinpoints' }],
  });
  try {
    await docs(strapi, PLACE).update({
      documentId: places[3].documentId,
      data: { title: 'Place 3 renamed' },
    });
    await docs(strapi, PLACE).publish({ documentId: places[3].documentId });
    await app.sync().idle();
    expect(await stateOf(app, PLACE, places[3].documentId)).toMatchObject({
      status: 'synced',
      queued: false,
    });
    expect(await remoteOf(app, PLACE, places[3].documentId)).toMatchObject({
      name: 'Place 3 renamed',
    });
  } finally {
    emulator.clearFaults();
  }
  // Nothing to do: resolves at once.
  await app.sync().idle({ timeoutMs: 2000 });
});

test('a resync whose lister stopped mid-listing (a CLI run cut short) is listed to its end by the next start', async () => {
  const last = (await app.sync().status()).resync!;
  expect(last.state).toBe('done');
  // As a stopped CLI run leaves it: stored as running, its cursor at the start, nobody listing.
  const stale = {
    ...last,
    id: 'cut-short',
    state: 'running',
    finishedAt: null,
    total: 0,
    done: 0,
    failed: 0,
    skipped: 0,
    cursor: { mapping: 0, phase: 'entries', after: 0 },
  };
  await app.strapi.store({ type: 'plugin', name: 'location-content' }).set({
    key: 'resync-job',
    value: stale,
  });
  expect((await app.sync().resync()).id).toBe('cut-short');
  const done = await resyncDone();
  expect(done).toMatchObject({ id: 'cut-short', total: last.total });
  expect(done.done + done.failed + done.skipped).toBe(last.total);
});

test('a resync whose lister was killed seconds ago is listed to its end once its hold runs out', async () => {
  const last = (await app.sync().status()).resync!;
  expect(last.state).toBe('done');
  // As a killed CLI run leaves it: stored as running mid-listing, its hold still good for a moment.
  await app.strapi.store({ type: 'plugin', name: 'location-content' }).set({
    key: 'resync-job',
    value: {
      ...last,
      id: 'killed',
      state: 'running',
      finishedAt: null,
      total: 0,
      cursor: { mapping: 0, phase: 'entries', after: 0 },
    },
  });
  await app.strapi.db.query('plugin::location-content.lease').updateMany({
    where: { name: 'resync' },
    data: { owner: 'killed-lister', slot: Date.now() + 1_500 },
  });
  // Started within the hold: the job is the killed one, listed by nobody yet.
  const started = await app.sync().resync();
  expect(started).toMatchObject({ id: 'killed', state: 'running', total: 0 });
  // No other start: this instance takes the listing over when the hold runs out.
  const done = await resyncDone();
  expect(done).toMatchObject({ id: 'killed', total: last.total });
  expect(done.done + done.failed + done.skipped).toBe(last.total);
});

test('a resync lists more entries than fit in one page (500), one outbox row each', async () => {
  const { strapi, emulator } = app;
  // Straight into the database: 510 icons the plugin has never seen.
  const rows = Array.from({ length: 510 }, (_, i) => ({
    documentId: `bulkicon${String(i).padStart(16, '0')}`,
    label: `Bulk ${i}`,
  }));
  for (let i = 0; i < rows.length; i += 100)
    await strapi.db.query(ICON).createMany({ data: rows.slice(i, i + 100) });
  // Listing only: the sync is off, so the rows stay in the outbox where they can be counted.
  setPluginConfig(strapi, 'syncEnabled', false);
  const since = mark(emulator);
  const job = await app.sync().resync();
  const total = 2 + 510 + 26 + 4 + 3;
  await until(
    async () => (await app.sync().status()).resync?.total === total,
    'every page to be listed'
  );
  const report = await app.sync().status();
  expect(report.resync).toMatchObject({ id: job.id, state: 'running', total, done: 0 });
  expect(report.queue.depth).toBe(total);
  expect(writes(emulator, since)).toEqual([]);
  // Stopping Strapi with this work pending is fine: the restart test shows it resumes.
});

test("a dry run's failure reason from the database names the cause, never the statement or its values", async () => {
  const pusher = app.strapi.plugin('location-content').service('push');
  const readEntry = pusher.readEntry;
  // What knex throws: the statement and its values, then " - " and the driver's message.
  pusher.readEntry = async () => {
    throw Object.assign(
      new Error(
        "select `t0`.* from `places` as `t0` where `t0`.`title` = 'An editor''s draft' - SQLITE_BUSY: database is locked"
      ),
      { code: 'SQLITE_BUSY' }
    );
  };
  try {
    const plan = await app.sync().resync({ dryRun: true });
    expect(plan.failed.length).toBeGreaterThan(0);
    for (const f of plan.failed) {
      expect(f.reason).toBe('SQLITE_BUSY: database is locked');
    }
  } finally {
    pusher.readEntry = readEntry;
  }
});
