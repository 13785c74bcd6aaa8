jest.setTimeout(240_000);
import type { Entry, PluginConfig } from '../../server/src/config/types';
import type { ImportPlan, ImportProgress } from '../../shared/contracts/import';
import { startEmulator, type EmulatorHandle } from '../../emulator/src';
import { addContentTypes, makeAppDir } from '../helpers/app-dir';
import { startApp, stopApp, type TestApp } from '../helpers/strapi';
import { docs, mark, PLACE, until, writes } from '../helpers/sync';

/**
 * Import through mappings other than the playground's, on the real Strapi and emulator: several
 * content types mapped to pinpoints (the choice is the caller's, the dry run names it), tags into
 * entries of a tag type found or created by their key (never twice), a transform's inverse that
 * runs on import (and a transform without one, named as not importable), coordinates into a
 * component, HTML into Markdown, and a media URL that is not http(s).
 */

const STAND = 'api::stand.stand';
const BOOTH = 'api::booth.booth';
const LABEL = 'api::label.label';

let app: TestApp;
let emulator: EmulatorHandle;
const ids: Record<string, number> = {};

/** The playground's mappings, and two more content types mapped to pinpoints. */
const patchConfig = (config: { 'location-content': { config: PluginConfig } }) => {
  const lc = config['location-content'].config;
  lc.mappings.push(
    {
      contentType: STAND,
      resource: 'pinpoint',
      fields: {
        name: 'name',
        description: 'intro',
        coordinates: 'location',
        tags: { path: 'labels', key: 'name' },
        media: 'photo',
      },
      // The map shows stands without their star; the import gives it back.
      transform: (entry: Entry) => ({ ...entry, name: entry.name.replace(/^★ /, '') }),
      inverse: (data: Entry) => ({ ...data, name: `★ ${data.name}`, origin: 'import' }),
    },
    {
      contentType: BOOTH,
      resource: 'pinpoint',
      fields: { name: 'title', coordinates: 'spot' },
      transform: (entry: Entry) => ({ ...entry, title: entry.title.toUpperCase() }),
    }
  );
  return config;
};

beforeAll(async () => {
  const appDir = await makeAppDir();
  await addContentTypes(appDir, [
    { name: 'label', draftAndPublish: true, attributes: { name: { type: 'string' } } },
    {
      name: 'stand',
      draftAndPublish: true,
      attributes: {
        name: { type: 'string', required: true },
        intro: { type: 'richtext' },
        location: { type: 'component', repeatable: false, component: 'shared.geo-point' },
        labels: { type: 'relation', relation: 'manyToMany', target: LABEL },
        photo: { type: 'media', multiple: false, allowedTypes: ['images'] },
        origin: { type: 'string' },
      },
    },
    { name: 'booth', attributes: { title: { type: 'string' }, spot: { type: 'json' } } },
  ]);
  emulator = await startEmulator({ strict: true, pageSize: 5 });
  app = await startApp({ appDir, emulatorHandle: emulator, patchConfig });
  // A label the editors already have: the import reuses it.
  await docs(app.strapi, LABEL).create({ data: { name: 'history' }, status: 'published' });
  [ids.harbour, ids.lighthouse] = app.emulator.seed('pinpoints', [
    {
      name: 'Harbour',
      description: '<p>Fish <em>every</em> morning</p>',
      latitude: 47.21,
      longitude: -1.56,
      tags: ['history', 'harbour'],
    },
    { name: 'Lighthouse', latitude: 47.22, longitude: -1.57, tags: ['harbour', 'view'] },
  ]);
  app.emulator.tamper('pinpoints', ids.harbour, { media_url: 'ftp://127.0.0.1/harbour.png' });
  // The dry run reads the last complete walk: one made after the seeding.
  await app.sync().inventory();
});

afterAll(async () => {
  await stopApp(app, { settle: true });
  await emulator?.stop();
});

/** A label entry as the tests read it. */
type Label = { name: string; documentId: string };

const finished = () =>
  until(
    async () => {
      const p: ImportProgress | null = await app.sync().importProgress();
      return p && p.state !== 'running' ? p : null;
    },
    'the import to finish',
    120_000
  );

const stand = async (remoteId: number) => {
  const [state] = await app.strapi.db
    .query('plugin::location-content.sync-state')
    .findMany({ where: { contentType: STAND, remoteId } });
  const entry = await docs(app.strapi, STAND).findOne({
    documentId: state.entryDocumentId,
    status: 'draft',
    populate: { location: true, labels: true, photo: true },
  });
  if (!entry) throw new Error(`no stand is linked to remote ${remoteId}`);
  return entry;
};

const labels = async () =>
  (await docs(app.strapi, LABEL).findMany({ fields: ['name'] })).map((l) => l.name).sort();

test('the dry run names every content type mapped to a resource and the one it would take', async () => {
  const before = mark(app.emulator);
  const plan: ImportPlan = await app.sync().import({ dryRun: true });
  const pinpoints = plan.groups.find((g) => g.resource === 'pinpoint');
  // The first of them in the config's order, unless the caller chooses.
  expect(pinpoints).toMatchObject({ contentType: PLACE, candidates: [PLACE, STAND, BOOTH] });
  expect(plan.into.pinpoint).toBe(PLACE);

  // A transform without inverse: named, never guessed.
  const booth: ImportPlan = await app.sync().import({ dryRun: true, into: { pinpoint: BOOTH } });
  const boothGroup = booth.groups.find((g) => g.resource === 'pinpoint');
  expect(boothGroup?.contentType).toBe(BOOTH);
  expect(boothGroup?.blocked).toMatch(/has a transform and no inverse/);
  expect(boothGroup?.samples).toEqual([]);
  expect(booth.total).toBe(0);

  // The inverse runs in the dry run as in the job: the sample is what would be written.
  const stands: ImportPlan = await app.sync().import({
    dryRun: true,
    into: { pinpoint: STAND },
    samples: 5,
  });
  const group = stands.groups.find((g) => g.resource === 'pinpoint');
  expect(group).toMatchObject({ contentType: STAND, count: 2, wouldFail: 0, notImportable: [] });
  const harbour = group?.samples.find((s) => s.remoteId === ids.harbour);
  expect(harbour?.data).toMatchObject({
    name: '★ Harbour',
    origin: 'import',
    intro: expect.stringMatching(/^Fish [_*]every[_*] morning$/),
    location: { lat: 47.21, lng: -1.56 },
    labels: [
      'the api::label.label entry whose name is "history" (found or created)',
      'the api::label.label entry whose name is "harbour" (found or created)',
    ],
  });
  expect(writes(app.emulator, before)).toEqual([]);
});

test('a choice that no active mapping backs is refused with a readable error', async () => {
  await expect(
    app.sync().import({ dryRun: true, into: { pinpoint: 'api::tour.tour' } })
  ).rejects.toThrow(
    `into.pinpoint: "api::tour.tour" has no active mapping of this resource; choose one of ${PLACE}, ${STAND}, ${BOOTH}`
  );
  // @ts-expect-error -- not a resource: what a script in JavaScript could pass, refused at run time
  await expect(app.sync().import({ into: { planet: STAND } })).rejects.toThrow(
    /into\.planet: not a resource/
  );
  expect(await app.sync().importProgress()).toBeNull();
});

test('the job writes into the chosen type: tags found or created by their key, the inverse applied', async () => {
  const before = mark(app.emulator);
  const places = await docs(app.strapi, PLACE).count({});
  const history = (await docs(app.strapi, LABEL).findMany({ filters: { name: 'history' } }))[0];
  await app.sync().import({ into: { pinpoint: STAND } });
  const job = await finished();
  expect(job).toMatchObject({ state: 'done', into: { pinpoint: STAND } });
  expect(job.byResource.pinpoint).toEqual({ total: 2, done: 2, failed: 0, skipped: 0 });
  const issue = job.issues.find((i) => i.remoteId === ids.harbour);
  expect(issue).toMatchObject({ imported: true, contentType: STAND });
  expect(issue?.reason).toMatch(/ftp:\/\/127\.0\.0\.1\/harbour\.png is not an http or https URL/);

  const harbour = await stand(ids.harbour);
  expect(harbour).toMatchObject({
    name: '★ Harbour',
    origin: 'import',
    location: { lat: 47.21, lng: -1.56 },
    photo: null,
  });
  expect(harbour.intro).toMatch(/^Fish [_*]every[_*] morning$/);
  // The label the editors had is reused; the missing one is created once for both stands.
  expect(harbour.labels.map((l: Label) => l.name).sort()).toEqual(['harbour', 'history']);
  expect(harbour.labels.find((l: Label) => l.name === 'history')?.documentId).toBe(
    history.documentId
  );
  const lighthouse = await stand(ids.lighthouse);
  expect(lighthouse.labels.map((l: Label) => l.name).sort()).toEqual(['harbour', 'view']);
  expect(await labels()).toEqual(['harbour', 'history', 'view']);

  expect(await docs(app.strapi, PLACE).count({})).toBe(places);
  expect(writes(app.emulator, before)).toEqual([]);

  // What the transform sends back is what the remote has: publishing it unchanged calls nothing.
  const published = mark(app.emulator);
  await docs(app.strapi, STAND).publish({ documentId: harbour.documentId });
  await app.sync().idle();
  expect(writes(app.emulator, published)).toEqual([]);
});

test('a second import takes only the new object and makes no second tag entry', async () => {
  [ids.pier] = app.emulator.seed('pinpoints', [
    { name: 'Pier', latitude: 47.23, longitude: -1.58, tags: ['harbour', 'history'] },
  ]);
  await app.sync().import({ into: { pinpoint: STAND } });
  const job = await finished();
  expect(job.byResource.pinpoint).toEqual({ total: 1, done: 1, failed: 0, skipped: 0 });
  expect(await labels()).toEqual(['harbour', 'history', 'view']);
  const pier = await stand(ids.pier);
  expect(pier.labels.map((l: Label) => l.name).sort()).toEqual(['harbour', 'history']);
  expect(await docs(app.strapi, STAND).count({})).toBe(3);
});

test('a job interrupted by a restart resumes into the content type it was started with', async () => {
  [ids.quay] = app.emulator.seed('pinpoints', [
    { name: 'Quay', latitude: 47.24, longitude: -1.59 },
  ]);
  // A job as a restart leaves it: recorded as running, in its walk, with its choice.
  const running = await app.sync().importProgress();
  await app.strapi.store({ type: 'plugin', name: 'location-content' }).set({
    key: 'import',
    value: {
      id: 'interrupted',
      state: 'running',
      startedAt: new Date().toISOString(),
      finishedAt: null,
      locale: 'en',
      publish: false,
      into: { pinpoint: STAND },
      phase: 'walk',
      after: 0,
      linksAfter: 0,
      totals: { category: 0, pinpoint: 0, event: 0, list: 0 },
      error: null,
    },
  });
  expect(running?.state).toBe('done');
  await app.stop();
  app = await startApp({ appDir: app.appDir, emulatorHandle: emulator, patchConfig });
  const job = await finished();
  expect(job).toMatchObject({ id: 'interrupted', state: 'done', into: { pinpoint: STAND } });
  expect(job.byResource.pinpoint).toMatchObject({ done: 1, failed: 0 });
  expect((await stand(ids.quay)).name).toBe('★ Quay');
  const [state] = await app.strapi.db
    .query('plugin::location-content.sync-state')
    .findMany({ where: { remoteId: ids.quay } });
  expect(state.contentType).toBe(STAND);
});
