/**
 * The inventory and linking admin routes over real HTTP: each checks its permission on the
 * server, bodies are validated, a walk runs in the background and its progress is readable.
 */
import { startApp, stopApp, type TestApp } from '../helpers/strapi';
import { createPlace } from '../helpers/content';
import { PLACE, until } from '../helpers/sync';
import { createAdmin, createRole, pluginApi } from '../helpers/admin-api';

let app: TestApp;
let admin: string;
let reader: string;
let nobody: string;

const api = (method: string, path: string, token: string, body?: unknown) =>
  pluginApi(app, method, path, token, body);

async function adminWith(email: string, actions: string[] | 'super') {
  const role =
    actions === 'super'
      ? await app.strapi.service('admin::role').getSuperAdmin()
      : await createRole(
          app,
          email,
          actions.map((action) => ({ action }))
        );
  return createAdmin(app, email, [role.id]);
}

beforeAll(async () => {
  app = await startApp({
    http: true,
    emulator: { pageSize: 5 },
    patchConfig: (c) => ((c['location-content'].config.syncEnabled = false), c),
  });
  admin = await adminWith('admin@example.com', 'super');
  reader = await adminWith('reader@example.com', ['plugin::location-content.sync.read']);
  nobody = await adminWith('nobody@example.com', ['plugin::location-content.settings.read']);
});

afterAll(() => stopApp(app));

test('each route checks its permission on the server', async () => {
  for (const [method, path] of [
    ['GET', '/inventory'],
    ['POST', '/inventory'],
    ['GET', '/link'],
    ['POST', '/link'],
  ]) {
    expect((await api(method, path, nobody)).status).toBe(403);
  }
  expect((await api('GET', '/inventory', reader)).status).toBe(200);
  expect((await api('POST', '/inventory', reader)).status).toBe(403);
  expect((await api('GET', '/link', reader)).status).toBe(403);
  expect((await api('POST', '/link', reader, {})).status).toBe(403);
});

test('a walk runs in the background, then a proposal and a confirmation link an entry', async () => {
  const [remoteId] = app.emulator.seed('pinpoints', [
    { name: 'Louvre', latitude: 48.8606, longitude: 2.3376 },
    { name: 'Other', latitude: 1, longitude: 1 },
  ]);
  const place = await createPlace(app.strapi, {
    title: 'Louvre',
    geo: { lat: 48.8606, lng: 2.3376 },
  });

  const early = await api('GET', '/link', admin);
  expect(early.status).toBe(400);
  expect(early.body.error.message).toMatch(/inventory first/);

  const started = await api('POST', '/inventory', admin);
  expect(started.status).toBe(200);
  expect(started.body.inventory).toHaveProperty('state');
  const done = await until(async () => {
    const r = await api('GET', '/inventory', reader);
    return r.body.inventory.state === 'done' ? r.body.inventory : null;
  }, 'the walk to finish');
  expect(done).toMatchObject({ held: { pinpoint: 2 }, error: null });
  expect(done.lastCompleteAt).toEqual(expect.any(String));

  const proposal = await api('GET', '/link', admin);
  expect(proposal.status).toBe(200);
  expect(proposal.body.proposal.linked).toEqual([
    expect.objectContaining({
      contentType: PLACE,
      documentId: place.documentId,
      remoteId,
      label: 'Louvre',
    }),
  ]);
  expect(proposal.body.proposal.counts).toEqual({
    linked: 1,
    ambiguous: 0,
    unmatched: 0,
    unowned: 1,
  });

  expect((await api('POST', '/link', admin, { choices: { x: 'one' } })).status).toBe(400);
  expect((await api('POST', '/link', admin, { force: true })).status).toBe(400);
  const confirmed = await api('POST', '/link', admin, { choices: {} });
  expect(confirmed.status).toBe(200);
  expect(confirmed.body.proposal.applied).toBe(1);
  expect(
    (await app.sync().stateOf({ contentType: PLACE, documentId: place.documentId }))?.remoteId
  ).toBe(remoteId);
});
