/**
 * Editors' intents wait in memory for a moment before they reach the outbox (the save does not
 * wait for that write). A kill -9 in that moment must not lose the change: the next boot sees
 * that the last run did not stop cleanly and queues again what changed around its end.
 *
 * Strapi runs in child processes so that it can be SIGKILLed; the emulator runs here.
 */
jest.setTimeout(240_000);
import { startEmulator, type EmulatorHandle } from '../../emulator/src';
import { makeAppDir, removeDir } from '../helpers/app-dir';
import { appQuery, kind } from '../helpers/test-db';
import { startChildApp, type ChildApp, type ChildState } from '../helpers/child-app';

let emu: EmulatorHandle;
let appDir: string;
const apps: ChildApp[] = [];

const config = {
  retry: { baseMs: 50, maxMs: 500, maxAttempts: 8 },
  rateLimit: { requestsPerSecond: 500, concurrency: 4 },
  coalesce: { settleMs: 250, maxWaitMs: 3000 },
};

const start = async () => {
  const app = await startChildApp({ appDir, emulator: emu, patch: { config } });
  apps.push(app);
  return app;
};

const caughtUp = (app: ChildApp) => app.output.join('').includes('did not stop cleanly');

beforeAll(async () => {
  emu = await startEmulator({ strict: true });
  appDir = await makeAppDir();
});

afterAll(async () => {
  for (const a of apps) await a.kill('SIGKILL').catch(() => undefined);
  await emu?.stop();
  if (appDir) await removeDir(appDir);
});

/** The entries the test follows, by documentId. */
type Ids = { icon: string; kept: string; gone: string };

test('kill -9 while changes wait in memory: the next boot pushes them; after a clean stop it has nothing to catch up', async () => {
  const first = await start();
  const ids = await first.run(async (strapi) => {
    const P = 'api::place.place';
    const geo = { lat: 48.85, lng: 2.35 };
    await strapi.plugin('i18n').service('locales').create({ code: 'fr', name: 'French (fr)' });
    const icon = await strapi.documents('api::icon.icon').create({ data: { label: 'Flag' } });
    const kept = await strapi
      .documents(P)
      .create({ data: { title: 'Kept', address: '1 Main St', geo } });
    await strapi.documents(P).publish({ documentId: kept.documentId });
    await strapi.documents(P).update({
      documentId: kept.documentId,
      locale: 'fr',
      data: { title: 'Garde', address: '1 Main St', geo } as Record<string, unknown>,
    });
    await strapi.documents(P).publish({ documentId: kept.documentId, locale: 'fr' });
    const gone = await strapi
      .documents(P)
      .create({ data: { title: 'Gone', address: '2 Main St', geo } });
    await strapi.documents(P).publish({ documentId: gone.documentId });
    await strapi.plugin('location-content').service('sync').idle();
    return { icon: icon.documentId, kept: kept.documentId, gone: gone.documentId };
  });
  const before = emu.state();
  expect(before.pinpoints.map((p) => p.name).sort()).toEqual(['Garde', 'Gone', 'Kept']);
  expect(before.categories.map((c) => c.name)).toEqual(['Flag']);

  // From now on the outbox refuses every insert (on SQLite a TEMP trigger lives and dies with
  // this process's connection; on a server the trigger is dropped after the kill): the intents
  // of these changes can only wait in memory.
  const queued = await first.run(async (strapi, ids: Ids) => {
    const P = 'api::place.place';
    const outbox = strapi.db.metadata.get('plugin::location-content.outbox-entry').tableName;
    const client = strapi.db.dialect.client;
    if (client === 'sqlite') {
      await strapi.db.connection.raw(
        `CREATE TEMP TRIGGER lc_refuse_outbox BEFORE INSERT ON main.${outbox} BEGIN SELECT RAISE(ABORT, 'refused by the test'); END`
      );
    } else if (client === 'postgres') {
      await strapi.db.connection.raw(
        `CREATE FUNCTION lc_refuse() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'refused by the test'; END $$`
      );
      await strapi.db.connection.raw(
        `CREATE TRIGGER lc_refuse_outbox BEFORE INSERT ON "${outbox}" FOR EACH ROW EXECUTE FUNCTION lc_refuse()`
      );
    } else {
      await strapi.db.connection.raw(
        `CREATE TRIGGER lc_refuse_outbox BEFORE INSERT ON \`${outbox}\` FOR EACH ROW SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'refused by the test'`
      );
    }
    await strapi
      .documents('api::icon.icon')
      .update({ documentId: ids.icon, data: { label: 'Flag (new)' } as Record<string, unknown> });
    await strapi.documents(P).update({
      documentId: ids.kept,
      locale: 'fr',
      data: { title: 'Garde (nouveau)' } as Record<string, unknown>,
    });
    await strapi.documents(P).publish({ documentId: ids.kept, locale: 'fr' });
    await strapi.documents(P).unpublish({ documentId: ids.gone });
    await new Promise((r) => setTimeout(r, 600));
    const [{ n }] = await strapi.db.connection(outbox).count({ n: '*' });
    return Number(n);
  }, ids);
  expect(queued).toBe(0);
  // Nothing went out: the saves themselves succeeded, the worker had nothing to push.
  expect(
    emu
      .state()
      .pinpoints.map((p) => p.name)
      .sort()
  ).toEqual(['Garde', 'Gone', 'Kept']);
  await first.kill('SIGKILL');
  if (kind() === 'postgres')
    await appQuery(appDir, 'DROP TRIGGER lc_refuse_outbox ON location_content_outbox');
  if (kind() === 'mariadb') await appQuery(appDir, 'DROP TRIGGER lc_refuse_outbox');

  const second = await start();
  await second.call('idle', { timeoutMs: 60_000 });
  expect(caughtUp(second)).toBe(true);
  const after = emu.state();
  expect(after.categories.map((c) => c.name)).toEqual(['Flag (new)']);
  // The unpublished place is gone from the remote, the fr locale carries its new title.
  expect(after.pinpoints.map((p) => p.name).sort()).toEqual(['Garde (nouveau)', 'Kept']);
  const states = await second.call<ChildState[]>('states');
  expect(states.filter((s) => s.status !== 'synced')).toEqual([]);
  expect(states.find((s) => s.documentId === ids.gone)).toBeUndefined();

  // A clean stop writes what is buffered and marks the run: the next boot has nothing to catch up.
  await second.run(async (strapi, ids: Ids) => {
    await strapi
      .documents('api::icon.icon')
      .update({ documentId: ids.icon, data: { label: 'Flag (last)' } as Record<string, unknown> });
    return null;
  }, ids);
  await second.stop();
  const writesBefore = emu
    .requests()
    .filter((r) => r.method !== 'GET' && !r.path.startsWith('/v3.0/oauth2/')).length;
  const third = await start();
  await third.call('idle', { timeoutMs: 60_000 });
  expect(caughtUp(third)).toBe(false);
  expect(emu.state().categories.map((c) => c.name)).toEqual(['Flag (last)']);
  const writesAfter = emu
    .requests()
    .filter((r) => r.method !== 'GET' && !r.path.startsWith('/v3.0/oauth2/')).length;
  // At most the one push of the last save, if the second run had not sent it before it stopped.
  expect(writesAfter - writesBefore).toBeLessThanOrEqual(1);
  await third.stop();
});
