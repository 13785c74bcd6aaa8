/**
 * While the database server is gone, `sync.status()` and the plugin's routes (admin and content API)
 * say so in a sentence with a 503, never with knex's statement; the log does not get a line per
 * dashboard poll; once the server is back, they answer as before.
 *
 * A private PostgreSQL server (tests/helpers/postgres.ts) that the test stops and starts again.
 */
jest.setTimeout(240_000);
import { client, createAdmin } from '../helpers/admin-api';
import { createPlace } from '../helpers/content';
import type { DbServer } from '../helpers/db-server';
import { ensurePostgres, startCluster } from '../helpers/postgres';
import { startApp, stopApp, type TestApp } from '../helpers/strapi';
import { PLACE, until } from '../helpers/sync';
import { adminQuery } from '../helpers/db-admin';

const found = ensurePostgres();
if (!found.bin) console.warn(`db-unavailable skipped: ${found.reason}`);

(found.bin ? describe : describe.skip)('a database that does not answer', () => {
  let pg: DbServer;
  let app: TestApp;

  beforeAll(async () => {
    pg = await startCluster(found.bin!);
    app = await startApp({
      http: true,
      env: { ...pg.env, DATABASE_POOL_MAX: '2' },
    });
  });

  afterAll(async () => {
    await stopApp(app);
    await pg?.stop();
  });

  test('status() and the routes answer 503 with a reason, then recover', async () => {
    const api = client(app);
    const superAdmin = await app.strapi.service('admin::role').getSuperAdmin();
    const admin = await createAdmin(app, 'admin@example.com', [superAdmin.id]);
    const { accessKey: token } = await app.strapi
      .service('admin::api-token-content-api')
      .create({ name: 'ci', description: 'ci', type: 'full-access', lifespan: null });
    const place = await createPlace(app.strapi, { title: 'Before the outage' });
    await app.sync().idle();
    // The push's history line is written a moment after the push (batched): written before the
    // outage, so that the lines counted below are the outage's alone (a loaded machine wrote it
    // during the outage, and its warning made a fourth line).
    await until(
      async () =>
        (await app.sync().historyOf({ contentType: PLACE, documentId: place.documentId })).length,
      'the history line of the push'
    );
    expect((await api('GET', '/location-content/status', { token: admin })).status).toBe(200);
    expect((await api('GET', '/api/location-content/status', { token })).status).toBe(200);

    // The cluster runs with synchronous_commit off, and down() stops it as a crash would: the
    // commits of the last moment (the push's state, its history line) would be lost with it. On
    // disk first, so that what was synced before the outage is synced after it.
    await adminQuery({ client: 'postgres', ...pg }, 'CHECKPOINT');
    await pg.down();
    const before = app.logs.length;
    try {
      const thrown = await app
        .sync()
        .status()
        .then(
          () => null,
          (err: unknown) => err
        );
      expect(thrown).toMatchObject({ name: 'DatabaseUnavailableError' });
      expect((thrown as Error).message).toMatch(/^The database does not answer \(.+\)/);
      expect((thrown as Error).message).not.toMatch(/select |from "|location_content/i);

      for (const [path, auth] of [
        ['/location-content/status', admin],
        ['/location-content/settings', admin],
        ['/api/location-content/status', token],
        ['/location-content/status', admin],
        ['/location-content/status', admin],
      ] as const) {
        const res = await api('GET', path, { token: auth });
        expect(res.status).toBe(503);
        expect(res.body.error).toMatchObject({ status: 503, name: 'DatabaseUnavailableError' });
        expect(res.body.error.message).toMatch(/^The database does not answer/);
        expect(res.text).not.toMatch(/select |insert |from "|location_content/i);
      }
      // Strapi logs the first failed request's error; once the plugin knows the database is down,
      // its routes answer before Strapi's authentication fails again: not a line per poll.
      const strapiErrors = app.logs
        .slice(before)
        .filter((l) => l.startsWith('error:') && !l.includes('[location-content]'));
      expect(strapiErrors.length).toBeLessThanOrEqual(1);
    } finally {
      await pg.up();
    }
    const back = await api('GET', '/location-content/status', { token: admin });
    expect(back.status).toBe(200);
    expect(back.body.counts.synced).toBe(1);
    expect((await api('GET', '/api/location-content/status', { token })).status).toBe(200);
  });
});
