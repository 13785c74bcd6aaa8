/**
 * The import's admin routes over real HTTP: behind the trigger permission (reads included),
 * bodies validated, the dry run answers the plan, the job runs in the background and its
 * progress is readable there and in the status report.
 */
import { startApp, stopApp, type TestApp } from '../helpers/strapi';
import { mark, PLACE, until, writes } from '../helpers/sync';
import { createAdmin, createRole, pluginApi } from '../helpers/admin-api';

let app: TestApp;
let admin: string;
let reader: string;

const api = (method: string, path: string, token: string, body?: unknown) =>
  pluginApi(app, method, path, token, body);

beforeAll(async () => {
  app = await startApp({ http: true, emulator: { pageSize: 5 } });
  const superAdmin = await app.strapi.service('admin::role').getSuperAdmin();
  admin = await createAdmin(app, 'admin@example.com', [superAdmin.id]);
  const read = await createRole(app, 'reader@example.com', [
    { action: 'plugin::location-content.sync.read' },
  ]);
  reader = await createAdmin(app, 'reader@example.com', [read.id]);
  app.emulator.seed('pinpoints', [
    { name: 'Harbour', latitude: 47.2, longitude: -1.55 },
    { name: 'Bridge', latitude: 47.21, longitude: -1.56 },
  ]);
});

afterAll(() => stopApp(app, { settle: true }));

test('the routes need the trigger permission, reads included', async () => {
  for (const [method, path] of [
    ['GET', '/import'],
    ['POST', '/import/dry-run'],
    ['POST', '/import'],
  ])
    expect((await api(method, path, reader)).status).toBe(403);
});

test('a body is { locale?, publish?, into? } and nothing else', async () => {
  const bad = await api('POST', '/import/dry-run', admin, { publish: 'yes' });
  expect(bad.status).toBe(400);
  expect(bad.body.error.message).toBe('publish must be true or false.');
  const unknown = await api('POST', '/import', admin, { dryRun: true });
  expect(unknown.status).toBe(400);
  expect(unknown.body.error.message).toMatch(/Unknown field dryRun/);
  const notUid = await api('POST', '/import/dry-run', admin, { into: { pinpoint: 'places' } });
  expect(notUid.status).toBe(400);
  expect(notUid.body.error.message).toBe(
    'into.pinpoint must be a content type uid such as "api::place.place".'
  );
  // Which content types are mapped is the service's check: the same sentence for scripts and the CLI.
  const unmapped = await api('POST', '/import', admin, { into: { pinpoint: 'api::tour.tour' } });
  expect(unmapped.status).toBe(400);
  expect(unmapped.body.error.message).toBe(
    `into.pinpoint: "api::tour.tour" has no active mapping of this resource; choose one of ${PLACE}`
  );
  // A locale this Strapi does not have: refused before anything runs, dry run or job.
  for (const path of ['/import/dry-run', '/import']) {
    const missing = await api('POST', path, admin, { locale: 'de' });
    expect(missing.status).toBe(400);
    expect(missing.body.error.message).toBe(
      `locale must be one of this Strapi's locales (en), got "de"`
    );
  }
  expect((await api('GET', '/import', admin)).body).toEqual({ job: null });
});

test('dry run, start, progress', async () => {
  expect((await api('GET', '/import', admin)).body).toEqual({ job: null });
  // The dry run reads the last complete walk: the one made at boot was before the seed.
  await app.sync().inventory();
  const dry = await api('POST', '/import/dry-run', admin, {});
  expect(dry.status).toBe(200);
  expect(dry.body.plan.groups[1]).toMatchObject({
    resource: 'pinpoint',
    contentType: PLACE,
    count: 2,
  });
  expect(dry.body.plan.locale).toBe('en');

  const before = mark(app.emulator);
  const started = await api('POST', '/import', admin, { publish: true });
  expect(started.status).toBe(200);
  expect(started.body.job).toMatchObject({ state: 'running', publish: true, locale: 'en' });
  const done = await until(async () => {
    const { body } = await api('GET', '/import', admin);
    return body.job.state === 'done' ? body.job : null;
  }, 'the import to finish');
  expect(done.counts).toEqual({ total: 2, done: 2, failed: 0, skipped: 0 });
  const status = await api('GET', '/status', reader);
  expect(status.body.import).toMatchObject({ id: done.id, state: 'done' });
  // Published at once: online, linked, synced, and nothing pushed (the remote has them already).
  expect(status.body.counts.synced).toBe(2);
  await app.sync().idle();
  expect(writes(app.emulator, before)).toEqual([]);
});

test('the server answers while the job imports objects that have no file to download', async () => {
  const count = 120;
  app.emulator.seed(
    'pinpoints',
    Array.from({ length: count }, (_, i) => ({
      name: `Quay ${i}`,
      latitude: 47 + i / 10_000,
      longitude: -1.5,
    }))
  );
  await api('POST', '/import', admin, {});
  // SQLite answers at once: a job that never gave the event loop a turn would answer these only
  // when it is done, never while it imports the pinpoints. Asked four times a second, not fifty:
  // each answer (admin auth, permissions, the progress) takes the event loop from the job it watches.
  const seen: string[] = [];
  await until(
    async () => {
      const { body } = await api('GET', '/import', admin);
      if (body.job.state === 'running')
        seen.push(`${body.job.phase}:${body.job.byResource.pinpoint.done}`);
      return body.job.state === 'done';
    },
    'the second import to finish',
    120_000,
    250
  );
  const during = seen.filter((s) => {
    const [phase, done] = s.split(':');
    return phase === 'pinpoint' && Number(done) > 0 && Number(done) < count;
  });
  expect(during.length).toBeGreaterThan(0);
});
