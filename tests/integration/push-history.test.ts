/**
 * Push history per entry: each attempt (operation, outcome, HTTP status or mapping problem, message,
 * duration) is kept, the last 20 per entry, served newest first by the admin API.
 */
import type { GetEntryHistory, PushAttempt } from '../../shared/contracts/history';
import type { GetEntry } from '../../shared/contracts/sync';
import { startApp, stopApp, type TestApp } from '../helpers/strapi';
import { createPlace } from '../helpers/content';
import { docs, PLACE, setPluginConfig, stateOf, until } from '../helpers/sync';
import { ATTEMPT_UID, STATE_UID, tableInfo } from '../../server/src/sync/shared/tables';
import { createAdmin } from '../helpers/admin-api';

let app: TestApp;

beforeAll(async () => {
  app = await startApp({
    http: true,
    patchConfig: (config) => {
      config['location-content'].config.retry = { baseMs: 20, maxMs: 100, maxAttempts: 3 };
      // Each publish here follows its draft save at once: no burst to coalesce, so no settling
      // before its push (the pruning test publishes one entry 24 times, one push each).
      config['location-content'].config.coalesce = { settleMs: 0, maxWaitMs: 3000 };
      return config;
    },
  });
});

afterAll(() => stopApp(app));

const history = (documentId: string): Promise<PushAttempt[]> =>
  app.sync().historyOf({ contentType: PLACE, documentId });

test('create, update, a mapping problem, a refusal of the remote and a delete each leave one line', async () => {
  const place = await createPlace(app.strapi, { title: 'Louvre' });
  await app.sync().idle();
  await docs(app.strapi, PLACE).update({
    documentId: place.documentId,
    data: { title: 'Musée du Louvre' },
  });
  await docs(app.strapi, PLACE).publish({ documentId: place.documentId });
  await app.sync().idle();
  await docs(app.strapi, PLACE).update({ documentId: place.documentId, data: { geo: null } });
  await docs(app.strapi, PLACE).publish({ documentId: place.documentId });
  await app.sync().idle();
  expect((await stateOf(app, PLACE, place.documentId))?.status).toBe('failed');

  await docs(app.strapi, PLACE).update({
    documentId: place.documentId,
    data: { geo: { lat: 48.86, lng: 2.33 }, title: 'Too long' },
  });
  app.emulator.scriptFaults([
    {
      kind: 'status',
      status: 400,
      body: { name: ['Ensure this field has no more than 5 characters.'] },
      method: 'PUT',
      pathPrefix: '/v3.0/pinpoints',
    },
  ]);
  await docs(app.strapi, PLACE).publish({ documentId: place.documentId });
  await app.sync().idle();
  await docs(app.strapi, PLACE).unpublish({ documentId: place.documentId });
  await app.sync().idle();

  const lines = await history(place.documentId);
  expect(lines.map((l) => [l.operation, l.outcome, l.httpStatus])).toEqual([
    ['delete', 'removed', null],
    ['push', 'failed', 400],
    ['push', 'failed', null],
    ['update', 'synced', null],
    ['create', 'synced', null],
  ]);
  expect(lines[1].message).toContain('Ensure this field has no more than 5 characters.');
  expect(lines[2].message).toMatch(/^Mapping: .*coordinates|^Mapping: .*latitude/i);
  for (const l of lines) {
    expect(Number.isInteger(l.durationMs) && l.durationMs >= 0).toBe(true);
    expect(new Date(l.at).getTime()).toBeGreaterThan(Date.now() - 120_000);
  }
});

test('only the last 20 attempts of an entry are kept; other entries keep theirs', async () => {
  const other = await createPlace(app.strapi, { title: 'Other' });
  const place = await createPlace(app.strapi, { title: 'Edit 0' });
  await app.sync().idle();
  for (let i = 1; i <= 24; i++) {
    await docs(app.strapi, PLACE).update({
      documentId: place.documentId,
      data: { title: `Edit ${i}` },
    });
    await docs(app.strapi, PLACE).publish({ documentId: place.documentId });
    await app.sync().idle();
  }
  const lines = await history(place.documentId);
  expect(lines).toHaveLength(20);
  expect(lines.every((l) => l.outcome === 'synced')).toBe(true);
  const stored = await app.strapi.db
    .query(ATTEMPT_UID)
    .count({ where: { entryKey: `${PLACE}|${place.documentId}|en` } });
  expect(stored).toBe(20);
  expect(await history(other.documentId)).toEqual([
    expect.objectContaining({ operation: 'create', outcome: 'synced' }),
  ]);
});

test('the admin API serves the history to who may read the sync', async () => {
  const place = await createPlace(app.strapi, { title: 'Over HTTP' });
  await app.sync().idle();
  const url = `${app.url}/location-content/entries/${PLACE}/${place.documentId}/history`;
  expect((await fetch(url)).status).toBe(401);
  const superAdmin = await app.strapi.service('admin::role').getSuperAdmin();
  const token = await createAdmin(app, 'history@example.com', [superAdmin.id]);
  const res = await fetch(url, { headers: { Authorization: `Bearer ${token}` } });
  expect(res.status).toBe(200);
  const body = (await res.json()) as GetEntryHistory.Response;
  expect(body.attempts).toEqual([
    expect.objectContaining({
      operation: 'create',
      outcome: 'synced',
      httpStatus: null,
      message: null,
    }),
  ]);

  // viewUrl: the entry's state links to the object's page
  setPluginConfig(app.strapi, 'viewUrl', {
    pinpoint: 'https://livemap.getwemap.com/#/pinpoints/{id}',
  });
  const entry = (await (
    await fetch(`${app.url}/location-content/entries/${PLACE}/${place.documentId}`, {
      headers: { Authorization: `Bearer ${token}` },
    })
  ).json()) as GetEntry.Response;
  expect(entry.state?.viewUrl).toBe(
    `https://livemap.getwemap.com/#/pinpoints/${entry.state?.remoteId}`
  );
});

test('a history write that fails is logged with the reason, never the statement nor the values it held', async () => {
  const { table } = tableInfo(app.strapi, ATTEMPT_UID);
  const knex = app.strapi.db.connection;
  await app.sync().idle();
  await app.sync().historyOf({ contentType: PLACE, documentId: 'none' }); // flushes what is buffered
  const logged = app.logs.length;
  // The table is out of reach while one attempt is written: the database refuses the INSERT.
  await knex.schema.renameTable(table, `${table}_away`);
  try {
    app.emulator.scriptFaults([
      {
        kind: 'status',
        status: 400,
        body: { name: ['Hidden Orchard is taken.'] },
        method: 'POST',
        pathPrefix: '/v3.0/pinpoints',
      },
    ]);
    const place = await createPlace(app.strapi, { title: 'Hidden Orchard' });
    await app.sync().idle();
    const line = await until(
      () => app.logs.slice(logged).find((l) => l.includes('could not record the push history')),
      'the history warning'
    );
    expect(line).toMatch(
      /^warn: \[location-content\] could not record the push history of 1 attempt\(s\): .*(no such table|does not exist|doesn't exist)/
    );
    expect(line).not.toMatch(/insert into|values|Hidden Orchard/i);
    expect(line).not.toContain(place.documentId);
    expect(line!.length).toBeLessThan(300);
  } finally {
    await knex.schema.renameTable(`${table}_away`, table);
  }
});

test('a push that cannot record its own failure is kept in the history without the statement', async () => {
  const knex = app.strapi.db.connection;
  const { table } = tableInfo(app.strapi, STATE_UID);
  const place = await createPlace(app.strapi, { title: 'Quiet Cloister' });
  await app.sync().idle();
  // Every read and write of the sync state fails: so does the push's record of its own failure.
  await knex.schema.renameTable(table, `${table}_away`);
  let failed: PushAttempt | undefined;
  try {
    await docs(app.strapi, PLACE).update({
      documentId: place.documentId,
      data: { title: 'Quiet Cloister (new)' },
    });
    await docs(app.strapi, PLACE).publish({ documentId: place.documentId });
    failed = await until(
      async () => (await history(place.documentId)).find((a) => a.outcome === 'failed'),
      'the failed attempt'
    );
  } finally {
    await knex.schema.renameTable(`${table}_away`, table);
  }
  expect(failed.message).toMatch(/no such table|does not exist|doesn't exist/);
  expect(failed.message).not.toMatch(/select|insert into|update .* set|values|Quiet Cloister/i);
  expect(failed.message).not.toContain(place.documentId);
});
