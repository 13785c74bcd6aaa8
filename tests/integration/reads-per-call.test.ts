jest.setTimeout(240_000);
import type { Knex } from 'knex';
import type { ImportPlan } from '../../shared/contracts/import';
import { startApp, stopApp, type TestApp } from '../helpers/strapi';
import { createPlace } from '../helpers/content';
import { client, createAdmin, withoutCredentials } from '../helpers/admin-api';
import { behindOurBack, docs, PLACE, remoteIdOf, stateOf } from '../helpers/sync';

/**
 * What one call reads from the database, on the real Strapi and the emulator: a read repeated per
 * key, per object or per step costs a query each, which a resync of 10,000 keys or an import of
 * 100,000 objects multiplies.
 */

let app: TestApp;
let admin: string;
const SETTINGS_KEY = 'plugin_location-content_settings';

type Statement = { sql: string; bindings?: unknown[] };

/** The SQL statements knex sends while `run` runs, whose text matches `pattern`. */
async function statements(pattern: RegExp, run: () => Promise<unknown>): Promise<Statement[]> {
  const seen: Statement[] = [];
  const connection = app.strapi.db.connection as Knex;
  const onQuery = (q: Statement) => {
    if (pattern.test(q.sql)) seen.push(q);
  };
  connection.on('query', onQuery);
  try {
    await run();
  } finally {
    connection.off('query', onQuery);
  }
  return seen;
}

beforeAll(async () => {
  // The credentials are saved in Settings (the secret sealed), not set in config/plugins.
  app = await startApp({ http: true, patchConfig: withoutCredentials });
  const { emulator } = app;
  await app.sync().credentials.save({
    baseUrl: emulator.baseUrl,
    clientId: emulator.clientId,
    clientSecret: emulator.clientSecret,
  });
  app.sync().credentialsChanged();
  const roles = app.strapi.service('admin::role');
  admin = await createAdmin(app, 'reads@example.com', [(await roles.getSuperAdmin()).id]);
});

afterAll(async () => {
  await stopApp(app, { settle: true });
});

test('sync.pushMany reads the default locale once, not once per key of a localized type', async () => {
  const places = [];
  for (let i = 0; i < 12; i++)
    places.push(await createPlace(app.strapi, { title: `Stop ${i}`, geo: { lat: 45, lng: i } }));
  await app.sync().idle();
  const locales = app.strapi.plugin('i18n').service('locales');
  const spy = jest.spyOn(locales, 'getDefaultLocale');
  try {
    // No locale: each key names the default locale of the localized place type.
    await app
      .sync()
      .pushMany(places.map((p) => ({ contentType: PLACE, documentId: p.documentId })));
    expect(spy).toHaveBeenCalledTimes(1);
  } finally {
    spy.mockRestore();
  }
  await app.sync().idle();
  expect(await stateOf(app, PLACE, places[11].documentId, 'en')).toMatchObject({
    status: 'synced',
  });
});

test('a connection test reads and opens the saved credentials once', async () => {
  const api = client(app);
  // The worker's poll reads the credentials through a 2 s cache: filled now, it cannot read them
  // again during the request, and every read counted is the request's.
  await app.strapi.plugin('location-content').service('settings').current();
  const reads = await statements(/^select .*core_store/i, async () => {
    const res = await api('POST', '/location-content/settings/test', { token: admin, body: {} });
    expect(res.status).toBe(200);
    expect(res.body.result).toMatchObject({ ok: true });
  });
  // Each read of the settings row is followed by the opening of the sealed secret in it.
  expect(reads.filter((q) => q.bindings?.includes(SETTINGS_KEY))).toHaveLength(1);
});

test('the import dry run asks who owns the objects once per page, not once per object', async () => {
  const { emulator } = app;
  const seed = (from: number) =>
    emulator.seed(
      'pinpoints',
      Array.from({ length: 30 }, (_, i) => ({
        name: `Unowned ${from + i}`,
        latitude: 46 + (from + i) / 100,
        longitude: 3,
      }))
    );
  const dryRun = async () => {
    await app.sync().inventory();
    let plan!: ImportPlan;
    const owners = await statements(/location_content_sync_states/, async () => {
      plan = await app.sync().import({ dryRun: true });
    });
    return { count: plan.groups.find((g) => g.resource === 'pinpoint')?.count, owners };
  };
  seed(0);
  const thirty = await dryRun();
  seed(30);
  const sixty = await dryRun();
  expect([thirty.count, sixty.count]).toEqual([30, 60]);
  // Both fit in one page of the inventory (200): as many queries of the states for 60 as for 30.
  expect(sixty.owners).toHaveLength(thirty.owners.length);
  expect(thirty.owners.length).toBeLessThan(30);
});

test('a push that finds its object deleted on the remote creates it again without reading its state back', async () => {
  const { strapi, emulator } = app;
  const place = await createPlace(strapi, { title: 'Harbour', geo: { lat: 43.3, lng: 5.36 } });
  await app.sync().idle();
  const gone = await remoteIdOf(app, PLACE, place.documentId, 'en');
  await behindOurBack(emulator, 'DELETE', `/v3.0/pinpoints/${gone}`);

  const states = strapi.plugin('location-content').service('state');
  const spy = jest.spyOn(states, 'get');
  try {
    await docs(strapi, PLACE).update({ documentId: place.documentId, data: { title: 'Port' } });
    await docs(strapi, PLACE).publish({ documentId: place.documentId });
    await app.sync().idle();
    const ofPlace = spy.mock.calls.filter(
      ([key]) => (key as { documentId: string }).documentId === place.documentId
    );
    // The push's one reading of the state at its start.
    expect(ofPlace).toHaveLength(1);
  } finally {
    spy.mockRestore();
  }
  const made = emulator.state().pinpoints.filter((p) => p.name === 'Port');
  expect(made).toHaveLength(1);
  expect(made[0].id).not.toBe(gone);
  expect(await stateOf(app, PLACE, place.documentId, 'en')).toMatchObject({
    remoteId: made[0].id,
    status: 'synced',
    mediaUrl: null,
  });
});
