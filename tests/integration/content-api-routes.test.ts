/**
 * The trigger for scripts and CI over real HTTP: `GET /api/location-content/status` and
 * `POST /api/location-content/resync`, authorised by Strapi API tokens. No token: 401; a read-only
 * token reads the status and may not start a resync; a custom token gets exactly the actions it was given.
 */
import { startApp, stopApp, type TestApp } from '../helpers/strapi';
import { createPlace } from '../helpers/content';
import { mark, PLACE, remoteOf, until, writes } from '../helpers/sync';

const STATUS = 'plugin::location-content.status.find';
const RESYNC = 'plugin::location-content.resync.create';

let app: TestApp;
let placeId: string;
const tokens = {} as Record<'readOnly' | 'fullAccess' | 'statusOnly' | 'custom', string>;
const bodies: string[] = [];

const call = async (method: string, path: string, token?: string, body?: unknown) => {
  const headers: Record<string, string> = {};
  if (token) headers.Authorization = `Bearer ${token}`;
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const res = await fetch(`${app.url}/api/location-content${path}`, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  bodies.push(text);
  return {
    status: res.status,
    type: res.headers.get('content-type') ?? '',
    body: text ? JSON.parse(text) : null,
  };
};

const createToken = async (
  name: string,
  type: 'read-only' | 'full-access' | 'custom',
  permissions?: string[]
) => {
  const token = await app.strapi.service('admin::api-token-content-api').create({
    name,
    description: name,
    type,
    lifespan: null,
    ...(permissions ? { permissions } : {}),
  });
  return token.accessKey as string;
};

beforeAll(async () => {
  app = await startApp({ http: true });
  placeId = (await createPlace(app.strapi, { title: 'Louvre' })).documentId;
  await app.sync().idle();
  tokens.readOnly = await createToken('ci read-only', 'read-only');
  tokens.fullAccess = await createToken('ci full access', 'full-access');
  tokens.statusOnly = await createToken('ci status', 'custom', [STATUS]);
  tokens.custom = await createToken('ci resync', 'custom', [STATUS, RESYNC]);
});

afterAll(() => stopApp(app));

test('the routes are actions a custom API token can be given', () => {
  const actions: string[] = [...app.strapi.contentAPI.permissions.providers.action.keys()];
  expect(actions).toEqual(expect.arrayContaining([STATUS, RESYNC]));
});

test('without a token, or with a wrong one, both routes answer 401 and start nothing', async () => {
  for (const token of [undefined, 'not-a-token']) {
    expect((await call('GET', '/status', token)).status).toBe(401);
    expect((await call('POST', '/resync', token)).status).toBe(401);
  }
  expect((await app.sync().status()).resync).toBeNull();
});

test('a read-only token reads the status as JSON and is refused the resync (403)', async () => {
  const status = await call('GET', '/status', tokens.readOnly);
  expect(status.status).toBe(200);
  expect(status.type).toContain('application/json');
  expect(status.body).toMatchObject({
    configured: true,
    counts: { synced: 1, failed: 0 },
    queue: { depth: 0 },
    resync: null,
  });
  const since = mark(app.emulator);
  const refused = await call('POST', '/resync', tokens.readOnly);
  expect(refused.status).toBe(403);
  expect((await app.sync().status()).resync).toBeNull();
  expect(writes(app.emulator, since)).toEqual([]);
});

test('a custom token without the resync action reads the status and is refused the resync', async () => {
  expect((await call('GET', '/status', tokens.statusOnly)).status).toBe(200);
  expect((await call('POST', '/resync', tokens.statusOnly)).status).toBe(403);
  expect((await app.sync().status()).resync).toBeNull();
});

test('a bad body is a 400 that says what is expected', async () => {
  const res = await call('POST', '/resync', tokens.custom, { dryrun: true });
  expect(res.status).toBe(400);
  expect(res.body.error.message).toBe('Unknown field dryrun: expected { dryRun?: boolean }.');
  expect((await call('POST', '/resync', tokens.custom, { dryRun: 'yes' })).body.error.message).toBe(
    'dryRun must be true or false.'
  );
});

test('a full-access token gets the dry-run plan; nothing is written', async () => {
  await app.strapi.db.query(PLACE).updateMany({
    where: { documentId: placeId },
    data: { title: 'Louvre (renamed behind the plugin)' },
  });
  const since = mark(app.emulator);
  const res = await call('POST', '/resync', tokens.fullAccess, { dryRun: true });
  expect(res.status).toBe(200);
  expect(res.body.plan.update).toEqual([
    expect.objectContaining({
      contentType: PLACE,
      documentId: placeId,
      label: 'Louvre (renamed behind the plugin)',
    }),
  ]);
  expect(writes(app.emulator, since)).toEqual([]);
});

test('a custom token with the resync action starts the resync, whose progress the status then shows', async () => {
  const res = await call('POST', '/resync', tokens.custom);
  expect(res.status).toBe(200);
  expect(res.body.job).toMatchObject({ state: 'running', dryRun: false });
  await app.sync().idle();
  const done = await until(async () => {
    const s = await call('GET', '/status', tokens.custom);
    return s.body.resync?.state === 'done' ? s.body.resync : undefined;
  }, 'the resync to finish');
  expect(done).toMatchObject({ id: res.body.job.id, total: 1, done: 1, failed: 0 });
  expect((await remoteOf(app, PLACE, placeId))!.name).toBe('Louvre (renamed behind the plugin)');
});

test('no answer carries the client secret or a token', () => {
  const all = bodies.join('\n');
  expect(all).not.toContain(app.emulator.clientSecret);
  for (const t of Object.values(tokens)) expect(all).not.toContain(t);
});
