jest.setTimeout(180_000);
import { startApp, stopApp, type TestApp } from '../helpers/strapi';
import { blocks, createIcon, createPlace, createTour } from '../helpers/content';
import {
  behindOurBack,
  mark,
  PLACE,
  remoteOf,
  stateOf,
  TOUR,
  until,
  writes,
} from '../helpers/sync';
import { createAdmin, pluginApi } from '../helpers/admin-api';
import type { DriftReport, RepairOutcome } from '../../server/src/sync/drift';

/** Drift: the remote changed behind the plugin's back is reported by a read-only check, then repaired. */

let app: TestApp;

const remoteIdOf = async (uid: string, documentId: string) =>
  (await stateOf(app, uid, documentId))!.remoteId!;

beforeAll(async () => {
  // The remote keeps coordinates rounded to about 1 m: that is not drift.
  app = await startApp({ http: true, emulator: { pageSize: 5, coordinateDecimals: 5 } });
});

afterAll(() => stopApp(app));

test('deleted, edited and foreign objects and changed memberships are reported, with 0 writes', async () => {
  const { strapi } = app;
  const icon = await createIcon(strapi, 'Museum');
  const places = [];
  for (let i = 0; i < 6; i++) {
    places.push(
      await createPlace(strapi, {
        title: `Place ${i}`,
        body: blocks(`About   place ${i}`),
        geo: { lat: 45.1234567 + i / 100, lng: 5.7654321 },
        icon: icon.documentId,
      })
    );
  }
  const tour = await createTour(strapi, {
    name: 'Tour',
    stops: places.slice(0, 3).map((p) => p.documentId),
  });
  await app.sync().idle();

  const unchanged = await app.sync().check();
  expect(unchanged).toMatchObject({ missing: [], changed: [], membership: [], notOurs: [] });
  expect(unchanged.inventoryAt).toEqual(expect.any(String));

  const [gone, edited, inTour] = await Promise.all(
    places.slice(0, 3).map((p) => remoteIdOf(PLACE, p.documentId))
  );
  const list = await remoteIdOf(TOUR, tour.documentId);
  await behindOurBack(app.emulator, 'DELETE', `/v3.0/pinpoints/${gone}`);
  await behindOurBack(app.emulator, 'PUT', `/v3.0/pinpoints/${edited}`, {
    name: 'Typo fixed in the portal',
    latitude: 10,
  });
  await behindOurBack(app.emulator, 'DELETE', `/v3.0/lists/${list}/pinpoints`, [{ id: inTour }]);
  const [foreignPinpoint] = app.emulator.seed('pinpoints', [
    { name: 'Added by a script', latitude: 1, longitude: 2 },
  ]);
  const [foreignCategory] = app.emulator.seed('categories', [{ name: 'Portal category' }]);

  const since = mark(app.emulator);
  const objects = strapi.db.metadata.get('plugin::location-content.inventory-object').tableName;
  const reads: string[] = [];
  const onQuery = ({ sql }: { sql: string }) => {
    if (/^select/i.test(sql) && sql.includes(objects)) reads.push(sql);
  };
  strapi.db.connection.on('query', onQuery);
  const report: DriftReport = await app
    .sync()
    .check()
    .finally(() => {
      strapi.db.connection.off('query', onQuery);
    });
  expect(writes(app.emulator, since)).toEqual([]);
  // The walks of the whole inventory (100,000 objects on a big account: lists for their members,
  // objects no entry owns) read ids and names; fields are read only of the objects compared.
  const paged = reads.filter((sql) => /order by/i.test(sql));
  expect(paged.length).toBeGreaterThanOrEqual(5);
  for (const sql of paged) expect(sql).not.toMatch(/select \*|\bfields\b/i);

  expect(report.missing).toEqual([
    expect.objectContaining({
      contentType: PLACE,
      documentId: places[0].documentId,
      remoteId: gone,
    }),
  ]);
  expect(report.changed).toHaveLength(1);
  expect(report.changed[0]).toMatchObject({
    contentType: PLACE,
    documentId: places[1].documentId,
    remoteId: edited,
  });
  const fields = report.changed[0].fields;
  expect(fields.map((f) => f.field)).toEqual(['name', 'latitude']);
  expect(fields[0]).toEqual({
    field: 'name',
    before: 'Place 1',
    after: 'Typo fixed in the portal',
  });
  expect(fields[1].before).toBeCloseTo(45.1334567, 7);
  expect(fields[1].after).toBe(10);
  expect(report.membership).toEqual([
    expect.objectContaining({
      contentType: TOUR,
      documentId: tour.documentId,
      absent: [inTour],
      extra: [],
    }),
  ]);
  expect(report.notOurs).toEqual(
    expect.arrayContaining([
      {
        resource: 'pinpoint',
        remoteId: foreignPinpoint,
        name: 'Added by a script',
        deletable: true,
      },
      {
        resource: 'category',
        remoteId: foreignCategory,
        name: 'Portal category',
        deletable: false,
      },
    ])
  );
  expect(report.notOurs).toHaveLength(2);
  expect(report.byContentType.find((c) => c.contentType === PLACE)).toMatchObject({
    missing: 1,
    changed: 1,
  });

  // Kept with its date.
  const kept = await app.sync().drift();
  expect(kept.report).toEqual(report);
});

test('each group is repaired through the queue; a category is never deleted', async () => {
  const { report: before } = await app.sync().drift();
  if (!before) throw new Error('the drift report of the check above was not kept');
  const since = mark(app.emulator);

  const outcome: RepairOutcome = await app
    .sync()
    .repair({ groups: ['missing', 'changed', 'membership', 'notOurs'] });
  expect(outcome).toMatchObject({
    queued: { missing: 1, changed: 1, membership: 1 },
    deleted: 1,
    errors: [],
  });
  expect(outcome.skipped).toEqual([
    expect.objectContaining({ resource: 'category', reason: expect.stringContaining('no delete') }),
  ]);
  await app.sync().idle();

  const missingDoc = before.missing[0].documentId;
  const recreated = await remoteOf(app, PLACE, missingDoc);
  expect(recreated).toMatchObject({ name: 'Place 0' });
  expect(recreated.id).not.toBe(before.missing[0].remoteId);
  expect(await remoteOf(app, PLACE, before.changed[0].documentId)).toMatchObject({
    name: 'Place 1',
    latitude: 45.13346,
  });
  const state = app.emulator.state();
  expect(
    state.pinpoints.find(
      (p) => p.id === before.notOurs.find((o) => o.resource === 'pinpoint')!.remoteId
    )
  ).toBeUndefined();
  expect(
    state.categories.find(
      (c) => c.id === before.notOurs.find((o) => o.resource === 'category')!.remoteId
    )
  ).toBeDefined();
  // Every call of the repair was logged by the remote like any push (a write, then nothing more).
  expect(writes(app.emulator, since).length).toBeGreaterThanOrEqual(4);

  const after = await app.sync().check();
  expect(after).toMatchObject({ missing: [], changed: [], membership: [] });
  // The recreated pinpoint is in its list again.
  expect(state.lists[0].members).toContain(recreated.id);
  expect(after.notOurs).toEqual([
    expect.objectContaining({ resource: 'category', deletable: false }),
  ]);
});

test('a "not ours" repair never deletes an object an entry owns, even with an inventory older than the push', async () => {
  const [foreign] = app.emulator.seed('pinpoints', [
    { name: 'Soon linked', latitude: 3, longitude: 4 },
  ]);
  const report: DriftReport = await app.sync().check();
  expect(report.notOurs.map((o) => o.remoteId)).toContain(foreign);

  // After the walk, an entry comes to own the object (as a link of existing content does).
  const place = await createPlace(app.strapi, { title: 'Owner' });
  await app.sync().idle();
  await app.strapi.db.query('plugin::location-content.sync-state').updateMany({
    where: { contentType: PLACE, entryDocumentId: place.documentId },
    data: { remoteId: foreign },
  });

  const since = mark(app.emulator);
  const outcome: RepairOutcome = await app.sync().repair({ groups: ['notOurs'] });
  expect(outcome.deleted).toBe(0);
  expect(outcome.skipped).toEqual(
    expect.arrayContaining([
      { resource: 'pinpoint', remoteId: foreign, reason: 'an entry owns it now' },
    ])
  );
  expect(writes(app.emulator, since).filter((w) => w.method === 'DELETE')).toEqual([]);
  expect(app.emulator.state().pinpoints.find((p) => p.id === foreign)).toBeDefined();
});

test('deleting an event no entry owns leaves the lists of the pinpoint with the same id', async () => {
  // Ids are per resource on the real API (the emulator numbers each kind apart): an event may
  // have the id of a pinpoint in a list. One is put in the inventory as a walk would have.
  const [member] = app.emulator.state().lists[0].members;
  const identity = { name: 'Event', nameKey: 'event', fieldsHash: '', fields: {} };
  await app.strapi
    .plugin('location-content')
    .service('inventory')
    .table.upsertObjects(
      'event',
      [{ id: member, identity: { ...identity, latitude: null, longitude: null, pinpoint: null } }],
      Date.now(),
      'test'
    );
  const found: DriftReport = await app.sync().check({ fresh: false });
  expect(found.notOurs).toContainEqual(
    expect.objectContaining({ resource: 'event', remoteId: member })
  );
  expect(found.membership).toEqual([]);
  // Gone from the remote already (a 404 is a deletion done): the inventory forgets the event only.
  expect(await app.sync().repair({ groups: ['notOurs'] })).toMatchObject({ errors: [] });
  expect((await app.sync().check({ fresh: false })).membership).toEqual([]);
});

describe('admin routes', () => {
  const login = (email: string, roleIds: Array<number | string>) =>
    createAdmin(app, email, roleIds);
  const call = (method: string, path: string, token?: string, body?: unknown) =>
    pluginApi(app, method, path, token, body);

  test('each checks its permission on the server; the report comes with entry labels; bad groups are 400s', async () => {
    const roles = app.strapi.service('admin::role');
    const admin = await login('drift-admin@example.com', [(await roles.getSuperAdmin()).id]);
    const editor = await login('drift-editor@example.com', [
      (await roles.findOne({ code: 'strapi-editor' })).id,
    ]);
    const readerRole = await roles.create({ name: 'Drift reader', description: 'reads the sync' });
    await roles.assignPermissions(readerRole.id, [
      {
        action: 'plugin::location-content.sync.read',
        subject: null,
        properties: {},
        conditions: [],
      },
    ]);
    const reader = await login('drift-reader@example.com', [readerRole.id]);

    const seen = async (method: string, path: string, body?: unknown) =>
      Promise.all(
        [undefined, editor, reader, admin].map(
          async (tk) => (await call(method, path, tk, body)).status
        )
      );
    expect(await seen('GET', '/drift')).toEqual([401, 403, 200, 200]);
    expect(await seen('POST', '/drift/repair', { groups: ['changed'] })).toEqual([
      401, 403, 403, 200,
    ]);
    expect(await seen('POST', '/drift/check', {})).toEqual([401, 403, 403, 200]);

    expect((await call('POST', '/drift/repair', admin, { groups: ['everything'] })).status).toBe(
      400
    );
    expect((await call('POST', '/drift/repair', admin, { groups: [] })).status).toBe(400);

    await until(
      async () => !(await call('GET', '/drift', admin)).body.checking,
      'the check to end',
      60_000
    );
    const kept = (await call('GET', '/drift', admin)).body;
    expect(kept.report.checkedAt).toEqual(expect.any(String));
    expect(kept.reconcile).toEqual({ cron: null, repair: null });
  });

  test("a missing object is reported with its entry's label, and repaired from the route", async () => {
    const roles = app.strapi.service('admin::role');
    const admin = await login('drift-admin2@example.com', [(await roles.getSuperAdmin()).id]);
    const place = await createPlace(app.strapi, { title: 'Labelled place' });
    await app.sync().idle();
    await behindOurBack(
      app.emulator,
      'DELETE',
      `/v3.0/pinpoints/${await remoteIdOf(PLACE, place.documentId)}`
    );
    await call('POST', '/drift/check', admin, {});
    await until(
      async () => {
        const b = (await call('GET', '/drift', admin)).body;
        return !b.checking && b.report.missing.length > 0;
      },
      'the report',
      60_000
    );
    const { report } = (await call('GET', '/drift', admin)).body;
    expect(report.missing).toEqual([
      expect.objectContaining({ documentId: place.documentId, label: 'Labelled place' }),
    ]);
    const repaired = await call('POST', '/drift/repair', admin, { groups: ['missing'] });
    expect(repaired.body.outcome.queued).toEqual({ missing: 1 });
    await app.sync().idle();
    expect(await remoteOf(app, PLACE, place.documentId)).toMatchObject({ name: 'Labelled place' });
  });
});
