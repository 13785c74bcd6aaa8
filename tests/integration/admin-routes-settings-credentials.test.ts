/**
 * The plugin's admin API over real HTTP, with the credentials saved in Settings: every route checks
 * its permission on the server (reads included), bodies are validated, the client secret never leaves
 * the server, and the connection test reports what went wrong in words.
 */
import type { MappingView } from '../../shared/contracts/mappings';
import type { FailedEntry } from '../../shared/contracts/sync';
import { startApp, stopApp, type TestApp } from '../helpers/strapi';
import { createPlace } from '../helpers/content';
import {
  bodies,
  client,
  closedPort,
  createAdmin,
  createRole,
  withoutCredentials,
  type Reply,
} from '../helpers/admin-api';

const PLACE = 'api::place.place';

describe('admin API with credentials set in Settings', () => {
  let app: TestApp;
  let api: ReturnType<typeof client>;
  let admin: string;
  let editor: string;
  let operator: string;
  let placeId: string;
  let brokenId: string;

  beforeAll(async () => {
    app = await startApp({ http: true, patchConfig: withoutCredentials });
    api = client(app);
    const roles = app.strapi.service('admin::role');
    const superAdmin = await roles.getSuperAdmin();
    const editorRole = await roles.findOne({ code: 'strapi-editor' });
    admin = await createAdmin(app, 'admin@example.com', [superAdmin.id]);
    editor = await createAdmin(app, 'editor@example.com', [editorRole.id]);
    // May read and trigger the sync, but not read places in the Content Manager.
    const syncOnly = await createRole(app, 'Sync operator', [
      { action: 'plugin::location-content.sync.read' },
      { action: 'plugin::location-content.sync.trigger' },
    ]);
    operator = await createAdmin(app, 'operator@example.com', [syncOnly.id]);
    placeId = (await createPlace(app.strapi, { title: 'Louvre' })).documentId;
    brokenId = (await createPlace(app.strapi, { title: 'Nowhere', geo: null })).documentId;
  });

  afterAll(async () => {
    await stopApp(app, { settle: true });
  });

  test('before anything is saved, settings say so and nothing is locked', async () => {
    const res = await api('GET', '/location-content/settings', { token: admin });
    expect(res.status).toBe(200);
    expect(res.body.settings).toEqual({
      baseUrl: null,
      clientId: null,
      secretSet: false,
      secretUnreadable: false,
      secretLast4: null,
      locked: {},
      configured: false,
    });
    expect(res.body.mappings.map((m: MappingView) => m.contentType)).toEqual([
      PLACE,
      'api::happening.happening',
      'api::icon.icon',
      'api::tour.tour',
    ]);
    expect(res.body.mappings[0]).toMatchObject({
      displayName: 'Place',
      kind: 'collectionType',
      localized: true,
      resource: 'pinpoint',
      active: true,
      problems: [],
    });
  });

  test('saving stores the secret encrypted and answers only whether it is set and its last 4 characters', async () => {
    const { baseUrl, clientId, clientSecret } = app.emulator;
    const res = await api('PUT', '/location-content/settings', {
      token: admin,
      body: { baseUrl: `${baseUrl}/`, clientId, clientSecret },
    });
    expect(res.status).toBe(200);
    expect(res.body.settings).toEqual({
      baseUrl,
      clientId,
      secretSet: true,
      secretUnreadable: false,
      secretLast4: clientSecret.length >= 8 ? clientSecret.slice(-4) : null,
      locked: {},
      configured: true,
    });
    const stored = (await app.strapi
      .store({ type: 'plugin', name: 'location-content' })
      .get({ key: 'settings' })) as { clientSecret: string };
    expect(stored.clientSecret).toMatch(/^v2:/);
    expect(JSON.stringify(stored)).not.toContain(clientSecret);
  });

  test('saving without the secret keeps the saved one', async () => {
    const res = await api('PUT', '/location-content/settings', {
      token: admin,
      body: { baseUrl: app.emulator.baseUrl, clientId: app.emulator.clientId, clientSecret: '' },
    });
    expect(res.status).toBe(200);
    expect(res.body.settings.secretSet).toBe(true);
    expect((await app.sync().credentials.get()).clientSecret).toBe(app.emulator.clientSecret);
  });

  test('bad settings bodies are 400s that say what is wrong', async () => {
    const put = (body: unknown) => api('PUT', '/location-content/settings', { token: admin, body });
    const cases: Array<[unknown, RegExp]> = [
      [{ baseUrl: 'ftp://example.com' }, /must start with https:\/\//],
      [{ baseUrl: 'not a url' }, /is not a URL/],
      [{ baseUrl: 'https://user:pw@example.com' }, /must not contain a user name or password/],
      [{ clientId: 42 }, /Client id must be a string/],
      [{ clientId: '' }, /Client id is required/],
      [{ token: 'x' }, /Unknown field: token/],
      [[1, 2], /Expected a JSON object/],
      // The saved secret only goes to the host it was saved for.
      [{ baseUrl: 'https://elsewhere.example.com' }, /enter the client secret again/],
    ];
    for (const [body, message] of cases) {
      const res = await put(body);
      expect({ body, status: res.status }).toEqual({ body, status: 400 });
      expect(res.body.error.message).toMatch(message);
    }
    expect((await app.sync().credentials.get()).baseUrl).toBe(app.emulator.baseUrl);
  });

  test('test connection: success lists the pinpoints; failures say why', async () => {
    await app.emulator.create('pinpoints', { name: 'Already there', latitude: 1, longitude: 2 });
    const test = (body: unknown) =>
      api('POST', '/location-content/settings/test', { token: admin, body });
    const host = new URL(app.emulator.baseUrl).host;

    // Saving the credentials let the worker push the places queued before: count what is there now.
    await app.sync().idle();
    const visible = app.emulator.state().pinpoints.length;
    const ok = await test({});
    expect(ok.status).toBe(200);
    expect(ok.body.result).toMatchObject({ ok: true, host, pinpoints: visible });
    expect(ok.body.result.sample.map((p: { name: string }) => p.name)).toContain('Already there');
    expect(ok.body.result.message).toBe(`Connected to ${host}: ${visible} pinpoints visible.`);

    const wrongSecret = await test({ clientSecret: 'definitely-not-the-secret' });
    expect(wrongSecret.body.result).toMatchObject({ ok: false, code: 'auth', status: 401 });
    expect(wrongSecret.body.result.message).toBe(
      `Wrong client id or client secret: ${host} refused them.`
    );

    // Unsaved form values are tested as typed, with the saved secret when the field is empty.
    const wrongId = await test({ clientId: 'someone-else' });
    expect(wrongId.body.result).toMatchObject({ ok: false, code: 'auth' });

    const port = await closedPort();
    const unreachable = await test({
      baseUrl: `http://127.0.0.1:${port}`,
      clientSecret: app.emulator.clientSecret,
    });
    expect(unreachable.body.result).toMatchObject({ ok: false, code: 'network' });
    expect(unreachable.body.result.message).toBe(
      `Cannot reach 127.0.0.1:${port}: the connection was refused (is the server running, and is the port right?).`
    );

    const wrongPath = await test({
      baseUrl: `${app.emulator.baseUrl}/api`,
      clientSecret: app.emulator.clientSecret,
    });
    expect(wrongPath.body.result).toMatchObject({ ok: false, code: 'not_found', status: 404 });
    expect(wrongPath.body.result.message).toBe(
      `${host} answered 404 Not Found on /v3.0/oauth2/token: check that the base URL is the API root, such as https://api.getwemap.com.`
    );

    app.emulator.scriptFaults([{ kind: 'status', status: 503, pathPrefix: '/v3.0/oauth2/token' }]);
    const down = await test({});
    expect(down.body.result).toMatchObject({ ok: false, code: 'server', status: 503 });
    expect(down.body.result.message).toBe(`${host} had an internal error (503). Try again later.`);

    // Longer than the test's own limit (the harness sets requestTimeoutMs to 5 s).
    app.emulator.scriptFaults([
      { kind: 'latency', latencyMs: 8000, pathPrefix: '/v3.0/pinpoints' },
    ]);
    const slow = await test({});
    expect(slow.body.result).toMatchObject({ ok: false, code: 'timeout' });
    expect(slow.body.result.message).toBe(`${host} did not answer within 5 s (timeout).`);
    app.emulator.clearFaults();

    // Another host with the saved secret would hand the secret to whoever runs that host.
    const elsewhere = await test({ baseUrl: `http://127.0.0.1:${port}` });
    expect(elsewhere.status).toBe(400);
    expect(elsewhere.body.error.message).toMatch(/enter the client secret again/);

    // Nothing was saved by testing.
    expect(await app.sync().credentials.get()).toEqual({
      baseUrl: app.emulator.baseUrl,
      clientId: app.emulator.clientId,
      clientSecret: app.emulator.clientSecret,
    });
  });

  test('every route: 401 without a token, 403 without the permission, 200 for the super admin', async () => {
    const routes: Array<[string, string, unknown?]> = [
      ['GET', '/settings'],
      ['PUT', '/settings', {}],
      ['POST', '/settings/test', {}],
      ['GET', '/mappings'],
      ['GET', '/status'],
      ['GET', `/entries/${PLACE}/${placeId}?locale=en`],
      ['POST', '/push', { contentType: PLACE, documentIds: [placeId] }],
      ['POST', '/resync', { dryRun: true }],
      ['POST', '/retry-failed', {}],
    ];
    const seen: Record<string, number[]> = {};
    for (const [method, path, body] of routes) {
      const key = `${method} ${path}`;
      seen[key] = [];
      for (const token of [undefined, editor, admin]) {
        seen[key].push((await api(method, `/location-content${path}`, { token, body })).status);
      }
    }
    expect(seen).toEqual(
      Object.fromEntries(routes.map(([m, p]) => [`${m} ${p}`, [401, 403, 200]]))
    );
  });

  test('sync permissions alone do not open settings, nor entries of types the user cannot read', async () => {
    expect((await api('GET', '/location-content/status', { token: operator })).status).toBe(200);
    expect((await api('GET', '/location-content/mappings', { token: operator })).status).toBe(200);
    expect((await api('GET', '/location-content/settings', { token: operator })).status).toBe(403);
    expect(
      (await api('POST', '/location-content/settings/test', { token: operator, body: {} })).status
    ).toBe(403);
    const entry = await api('GET', `/location-content/entries/${PLACE}/${placeId}`, {
      token: operator,
    });
    expect(entry.status).toBe(403);
    expect(entry.body.error.message).toMatch(/cannot read api::place\.place/);
    expect(
      (
        await api('POST', '/location-content/push', {
          token: operator,
          body: { contentType: PLACE, documentIds: [placeId] },
        })
      ).status
    ).toBe(403);
  });

  test('push: bad bodies are 400s; a push is visible in the entry state', async () => {
    const push = (body: unknown) => api('POST', '/location-content/push', { token: admin, body });
    const cases: Array<[unknown, RegExp]> = [
      [{ contentType: 'api::nope.nope', documentIds: [placeId] }, /is not mapped/],
      [{ contentType: 'plugin::users-permissions.user', documentIds: [placeId] }, /is not mapped/],
      [{ contentType: 'DROP TABLE', documentIds: [placeId] }, /content type uid/],
      [{ contentType: PLACE, documentIds: [] }, /non-empty array/],
      [{ contentType: PLACE, documentIds: placeId }, /non-empty array/],
      [{ contentType: PLACE, documentIds: [7] }, /must be strings/],
      [
        { contentType: PLACE, documentIds: ['doesnotexist000000000000'] },
        /No api::place\.place entry with documentId doesnotexist/,
      ],
      [{ contentType: PLACE, documentIds: [placeId], locale: '../etc' }, /locale code/],
      [{ contentType: PLACE, documentIds: [placeId], force: true }, /Unknown field force/],
      [
        { contentType: PLACE, documentIds: Array.from({ length: 1001 }, (_, i) => `id${i}`) },
        /at most 1000/,
      ],
    ];
    for (const [body, message] of cases) {
      const res = await push(body);
      expect({ body, status: res.status }).toEqual({ body, status: 400 });
      expect(res.body.error.message).toMatch(message);
    }
    const raw = await api('POST', '/location-content/push', {
      token: admin,
      raw: '"just a string"',
    });
    expect(raw.status).toBe(400);

    const ok = await push({
      contentType: PLACE,
      documentIds: [placeId, brokenId, placeId],
      locale: 'en',
    });
    expect(ok.body).toEqual({ queued: 2 });
    await app.sync().idle();

    const good = await api('GET', `/location-content/entries/${PLACE}/${placeId}?locale=en`, {
      token: admin,
    });
    expect(good.body.state).toMatchObject({
      contentType: PLACE,
      documentId: placeId,
      locale: 'en',
      status: 'synced',
      queued: false,
      lastError: null,
    });
    expect(typeof good.body.state.remoteId).toBe('number');
    expect(good.body.state.lastSyncedAt).toEqual(expect.any(String));

    // Without ?locale the default locale is meant.
    const defaultLocale = await api('GET', `/location-content/entries/${PLACE}/${placeId}`, {
      token: admin,
    });
    expect(defaultLocale.body.state.remoteId).toBe(good.body.state.remoteId);

    const broken = await api('GET', `/location-content/entries/${PLACE}/${brokenId}?locale=en`, {
      token: admin,
    });
    expect(broken.body.state).toMatchObject({ status: 'failed', remoteId: null });
    expect(broken.body.state.lastError).toMatch(/latitude|coordinates/i);

    const status = await api('GET', '/location-content/status', { token: admin });
    expect(status.body.configured).toBe(true);
    expect(status.body.counts.failed).toBeGreaterThanOrEqual(1);
    // Failed entries carry their title (the Content Manager's main field) for the dashboard.
    expect(status.body.failed).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          contentType: PLACE,
          documentId: brokenId,
          locale: 'en',
          label: 'Nowhere',
          reason: broken.body.state.lastError,
        }),
      ])
    );

    const unknownEntry = await api(
      'GET',
      `/location-content/entries/${PLACE}/neverexisted000000000000`,
      { token: admin }
    );
    expect(unknownEntry.body).toEqual({
      state: null,
      environment: { name: 'test', pushIn: null, pushing: true },
    });
    expect(
      (await api('GET', `/location-content/entries/api::nope.nope/${placeId}`, { token: admin }))
        .status
    ).toBe(400);
    expect(
      (
        await api('GET', `/location-content/entries/${PLACE}/${placeId}?locale=%3Cscript%3E`, {
          token: admin,
        })
      ).status
    ).toBe(400);
  });

  test('resync: the dry run lists, a start answers at once, a second start gets the running job', async () => {
    const bad = await api('POST', '/location-content/resync', {
      token: admin,
      body: { dryRun: 'yes' },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toMatch(/dryRun must be true or false/);

    const dry = await api('POST', '/location-content/resync', {
      token: admin,
      body: { dryRun: true },
    });
    expect(dry.body.plan).toMatchObject({
      create: [],
      update: [],
      delete: [],
      truncatedAt: expect.any(Number),
    });
    expect(dry.body.plan.failed).toEqual([
      expect.objectContaining({
        documentId: brokenId,
        label: 'Nowhere',
        reason: expect.stringMatching(/latitude|coordinates/i),
      }),
    ]);
    expect(dry.body.plan.unchanged).toBe(1);

    // Pushes held back, so that the first job is surely still running when the second click lands
    // (with nothing to push, a job of two entries can finish between two requests).
    app.strapi.config.set('plugin::location-content.syncEnabled', false);
    let first: Reply | undefined;
    let second: Reply | undefined;
    try {
      [first, second] = await Promise.all([
        api('POST', '/location-content/resync', { token: admin, body: {} }),
        api('POST', '/location-content/resync', { token: admin, body: { dryRun: false } }),
      ]);
      expect(first.body.job).toMatchObject({ state: 'running', dryRun: false });
      expect(second.body.job.id).toBe(first.body.job.id);
    } finally {
      app.strapi.config.set('plugin::location-content.syncEnabled', true);
    }
    await app.sync().idle();

    let job;
    do {
      job = (await api('GET', '/location-content/status', { token: admin })).body.resync;
      // The job's counters are flushed by a ticker; ask until it has seen the last row.
      if (job.state === 'running') await new Promise((r) => setTimeout(r, 200));
    } while (job.state === 'running');
    expect(job).toMatchObject({ id: first?.body.job.id, state: 'done', total: 2, failed: 1 });
  });

  test('retry failed queues the failed entries again', async () => {
    const res = await api('POST', '/location-content/retry-failed', { token: admin, body: {} });
    expect(res.body.queued).toBeGreaterThanOrEqual(1);
    await app.sync().idle();
    const status = await api('GET', '/location-content/status', { token: admin });
    expect(status.body.failed.map((f: FailedEntry) => f.documentId)).toContain(brokenId);
  });

  test('no answer ever carried the client secret or a token', () => {
    const secret = app.emulator.clientSecret;
    const basic = Buffer.from(`${app.emulator.clientId}:${secret}`).toString('base64');
    const all = bodies.join('\n');
    expect(bodies.length).toBeGreaterThan(50);
    expect(all).not.toContain(secret);
    expect(all).not.toContain(basic);
    expect(all).not.toMatch(/access_token|Bearer /i);
    expect(app.logs.join('\n')).not.toContain(secret);
  });
});
