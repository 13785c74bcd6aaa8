/**
 * Outside `pushIn` (or with `syncEnabled: false`) nothing changes the remote, whichever path asks:
 * a drift repair of each group (its deletes of "not ours" objects included), a link, a resync, a
 * retry, "Push now", their admin routes and the scheduled check with `repair: 'all'`. What is
 * queued waits in the outbox; what cannot be queued (the deletes) is refused with one sentence.
 * The same repair, where the environment pushes, does its work.
 */
jest.setTimeout(240_000);
import { startApp, stopApp, type TestApp } from '../helpers/strapi';
import { createPlace, createTour } from '../helpers/content';
import { createAdmin, pluginApi } from '../helpers/admin-api';
import {
  behindOurBack,
  mark,
  PLACE,
  remoteOf,
  setPluginConfig,
  stateOf,
  workerRounds,
  writes,
} from '../helpers/sync';
import type { DriftReport } from '../../server/src/sync/drift';

const PUSHING = ['production', 'test'];
const NOT_PUSHING = ['production'];

let app: TestApp;
let admin: string;

const call = (method: string, path: string, body?: unknown) =>
  pluginApi(app, method, path, admin, body);

const pinpointIds = () => app.emulator.state().pinpoints.map((p) => p.id);
/** Several rounds of the worker (it polls every second). */
const rounds = () => workerRounds(app);

let places: Array<{ documentId: string }>;
let broken: { documentId: string };
let linkable: { documentId: string };
let foreign: number;
let foreignLinkable: number;
let gone: number;
let edited: number;

beforeAll(async () => {
  app = await startApp({
    http: true,
    patchConfig: (config) => {
      const lc = config['location-content'].config;
      lc.pushIn = NOT_PUSHING;
      // Never fires by itself (a 31st of February): the test fires it.
      lc.reconcile = { cron: '0 0 31 2 *', repair: 'all' };
      return config;
    },
  });
  const roles = app.strapi.service('admin::role');
  admin = await createAdmin(app, 'guard-admin@example.com', [(await roles.getSuperAdmin()).id]);

  // Content synced while the environment pushed, then drift made behind the plugin's back.
  setPluginConfig(app.strapi, 'pushIn', PUSHING);
  places = [];
  for (let i = 0; i < 3; i++)
    places.push(
      await createPlace(app.strapi, { title: `Guarded ${i}`, geo: { lat: 40 + i, lng: 3 } })
    );
  await createTour(app.strapi, { name: 'Guarded tour', stops: [places[2].documentId] });
  broken = await createPlace(app.strapi, { title: 'Nowhere', geo: null });
  await app.sync().idle();
  expect((await stateOf(app, PLACE, broken.documentId))?.status).toBe('failed');
  gone = (await stateOf(app, PLACE, places[0].documentId))!.remoteId!;
  edited = (await stateOf(app, PLACE, places[1].documentId))!.remoteId!;
  await behindOurBack(app.emulator, 'DELETE', `/v3.0/pinpoints/${gone}`);
  await behindOurBack(app.emulator, 'PUT', `/v3.0/pinpoints/${edited}`, {
    name: 'Edited in the portal',
  });
  [foreign, foreignLinkable] = app.emulator.seed('pinpoints', [
    { name: 'Added by a script', latitude: 1, longitude: 2 },
    { name: 'Linkable', latitude: 48.85, longitude: 2.35 },
  ]);

  setPluginConfig(app.strapi, 'pushIn', NOT_PUSHING);
  // An entry made here waits in the queue, and matches an object of the account.
  linkable = await createPlace(app.strapi, { title: 'Linkable' });
});

afterAll(() => stopApp(app));

describe('outside pushIn', () => {
  let since: number;
  beforeAll(() => {
    since = mark(app.emulator);
  });

  test('the check reads the account (allowed) and finds every group', async () => {
    const report: DriftReport = await app.sync().check();
    expect(report.missing.map((m) => m.remoteId)).toEqual([gone]);
    expect(report.changed.map((m) => m.remoteId)).toEqual([edited]);
    expect(report.notOurs.map((o) => o.remoteId).sort()).toEqual([foreign, foreignLinkable].sort());
  });

  test('a repair of "not ours" objects is refused with one sentence, nothing deleted nor queued', async () => {
    const depth = (await app.sync().status()).queue.depth;
    const refused = app.sync().repair({ groups: ['missing', 'changed', 'notOurs'] });
    await expect(refused).rejects.toMatchObject({
      name: 'PushRefusedError',
      message: expect.stringContaining('environment "test" is not in pushIn (production)'),
    });
    await expect(app.sync().repair({ groups: ['notOurs'] })).rejects.toThrow(
      /^Nothing is changed on the remote from here/
    );
    expect((await app.sync().status()).queue.depth).toBe(depth);
    expect(pinpointIds()).toEqual(expect.arrayContaining([foreign, foreignLinkable]));

    // The admin route answers 400 with the sentence.
    const answer = await call('POST', '/drift/repair', { groups: ['notOurs'] });
    expect(answer.status).toBe(400);
    expect(answer.body.error).toMatchObject({
      name: 'PushRefusedError',
      message: expect.stringContaining('not in pushIn'),
    });
    expect(writes(app.emulator, since)).toEqual([]);
  });

  test('the repairs of entries, a link, a resync, a retry and "Push now" only queue', async () => {
    const repaired = await call('POST', '/drift/repair', {
      groups: ['missing', 'changed', 'membership'],
    });
    expect(repaired.status).toBe(200);
    expect(repaired.body.outcome.queued).toMatchObject({ missing: 1, changed: 1 });

    const linked = await app.sync().link({ dryRun: false });
    expect(linked.applied).toBe(1);
    expect((await stateOf(app, PLACE, linkable.documentId))?.remoteId).toBe(foreignLinkable);

    expect((await call('POST', '/retry-failed')).body).toEqual({ queued: 1 });
    expect(
      (
        await call('POST', '/push', {
          contentType: PLACE,
          documentIds: places.map((p) => p.documentId),
        })
      ).body
    ).toEqual({ queued: 3 });
    const job = await call('POST', '/resync', {});
    expect(job.status).toBe(200);
    // Listed into the outbox; the job stays running until its entries are pushed.
    await app.strapi
      .plugin('location-content')
      .service('resync')
      .running()
      ?.catch(() => undefined);
    expect((await app.sync().status()).resync?.state).toBe('running');
    expect(await app.sync().retryFailed()).toBe(0);

    await rounds();
    expect(writes(app.emulator, since)).toEqual([]);
    expect((await app.sync().status()).queue.depth).toBeGreaterThan(0);
  });

  test("the scheduled check with repair: 'all' reads, and its repair is refused", async () => {
    const run = await app.sync().reconcileNow(new Date());
    expect(run).toMatchObject({
      outcome: 'failed',
      error: expect.stringContaining('environment "test" is not in pushIn (production)'),
    });
    expect(run!.found).toMatchObject({ notOurs: 1 });
    expect(pinpointIds()).toContain(foreign);
    expect(writes(app.emulator, since)).toEqual([]);
  });

  test('with syncEnabled: false in a pushing environment, the deletes are refused too', async () => {
    setPluginConfig(app.strapi, 'syncEnabled', false);
    setPluginConfig(app.strapi, 'pushIn', PUSHING);
    try {
      await expect(app.sync().repair({ groups: ['notOurs'] })).rejects.toThrow(
        /syncEnabled is false/
      );
      await rounds();
      expect(writes(app.emulator, since)).toEqual([]);
    } finally {
      setPluginConfig(app.strapi, 'pushIn', NOT_PUSHING);
      setPluginConfig(app.strapi, 'syncEnabled', true);
    }
  });
});

test('where the environment pushes, the same repair deletes, and the queue goes out', async () => {
  setPluginConfig(app.strapi, 'pushIn', PUSHING);
  const since = mark(app.emulator);
  const outcome = await app.sync().repair({ groups: ['notOurs'] });
  // The report of the scheduled check, made after the link: the linked object is not in it.
  expect(outcome).toMatchObject({ deleted: 1, skipped: [], errors: [] });
  expect(pinpointIds()).not.toContain(foreign);

  await app.sync().idle();
  expect(writes(app.emulator, since)).toEqual(
    expect.arrayContaining([
      expect.objectContaining({ method: 'DELETE', path: `/v3.0/pinpoints/${foreign}` }),
      expect.objectContaining({ method: 'PUT', path: `/v3.0/pinpoints/${foreignLinkable}` }),
    ])
  );
  expect((await remoteOf(app, PLACE, places[0].documentId))?.name).toBe('Guarded 0');
  expect((await remoteOf(app, PLACE, places[1].documentId))?.name).toBe('Guarded 1');
  expect((await remoteOf(app, PLACE, linkable.documentId))?.id).toBe(foreignLinkable);
});
