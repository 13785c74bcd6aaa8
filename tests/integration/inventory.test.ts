jest.setTimeout(180_000);
import type { UID } from '@strapi/strapi';
import { startEmulator, type EmulatorHandle } from '../../emulator/src';
import { makeAppDir, removeDir, startApp, stopApp, type TestApp } from '../helpers/strapi';
import { mark } from '../helpers/sync';

/** The remote inventory: every collection walked page by page into a table, resumable. */

const INVENTORY = 'plugin::location-content.inventory-object' as UID.Schema;
const MEMBERS = 'plugin::location-content.inventory-member' as UID.Schema;

const rows = (app: TestApp, uid: UID.Schema): Promise<Array<Record<string, unknown>>> =>
  app.strapi.db.query(uid).findMany({ limit: 100_000 });
/** GETs of the pinpoint collection, up to the walk of list members (whose later links are opaque too). */
const pinpointGets = (emulator: EmulatorHandle, since: number) => {
  const gets = emulator
    .requests({ since, method: 'GET' })
    .filter((r) => r.path.startsWith('/v3.0/pinpoints'));
  const members = gets.findIndex((r) => r.path.includes('list='));
  return members < 0 ? gets : gets.slice(0, members);
};

async function seedAccount(emulator: EmulatorHandle) {
  const categories = emulator.seed('categories', [{ name: 'Museum' }, { name: 'Park' }]);
  const pinpoints = emulator.seed(
    'pinpoints',
    Array.from({ length: 45 }, (_, i) => ({
      name: `  Place   ${i} `,
      latitude: 45 + i / 1000,
      longitude: 5 + i / 1000,
      category: categories[i % 2],
    }))
  );
  emulator.seed('events', [
    {
      name: 'Concert',
      pinpoint: pinpoints[0],
      dates: [{ start: '2026-07-01T18:00:00.000Z', end: '2026-07-01T20:00:00.000Z' }],
    },
    {
      name: 'Market',
      pinpoint: pinpoints[1],
      dates: [{ start: '2026-07-02T08:00:00.000Z', end: '2026-07-02T12:00:00.000Z' }],
    },
  ]);
  const lists = emulator.seed('lists', [{ name: 'Tour A' }, { name: 'Tour B' }, { name: 'Empty' }]);
  return { categories, pinpoints, lists };
}

describe.each(['cursor', 'offset'] as const)('the inventory walk (%s pages)', (pagination) => {
  let app: TestApp;
  let seeded: Awaited<ReturnType<typeof seedAccount>>;

  beforeAll(async () => {
    app = await startApp({ emulator: { pageSize: 20, pagination } });
    seeded = await seedAccount(app.emulator);
    // Members of a list: more than one page of them.
    const { access_token } = app.emulator.issueToken();
    const add = (list: number, ids: number[]) =>
      fetch(`${app.emulator.baseUrl}/v3.0/lists/${list}/pinpoints`, {
        method: 'POST',
        headers: {
          Authorization: `Bearer ${access_token}`,
          'Content-Type': 'application/json',
        },
        body: JSON.stringify(ids.map((id) => ({ id }))),
      });
    await add(seeded.lists[0], seeded.pinpoints.slice(0, 25));
    await add(seeded.lists[1], seeded.pinpoints.slice(40));
  });

  afterAll(() => stopApp(app));

  test('stores every object with what identifies it, and list members', async () => {
    const since = mark(app.emulator);
    const progress = await app.sync().inventory();
    expect(progress).toMatchObject({
      state: 'done',
      error: null,
      held: { pinpoint: 45, category: 2, event: 2, list: 3, members: 30 },
    });
    expect(progress.lastCompleteAt).toEqual(expect.any(String));
    // No entry owns any of them yet.
    expect(progress.unowned).toBe(52);

    const objects = await rows(app, INVENTORY);
    const remote = app.emulator.state();
    expect(objects).toHaveLength(45 + 2 + 2 + 3);
    const p0 = objects.find(
      (o) => o.resource === 'pinpoint' && Number(o.remoteId) === seeded.pinpoints[0]
    );
    expect(p0).toMatchObject({
      name: 'Place   0',
      nameKey: 'place 0',
      latitude: 45,
      longitude: 5,
    });
    expect(p0?.fieldsHash).toMatch(/^[0-9a-f]{64}$/);
    const concert = objects.find((o) => o.resource === 'event' && o.name === 'Concert');
    expect(concert?.firstStart).toBe('2026-07-01T18:00:00.000Z');
    expect(new Set(objects.map((o) => `${o.resource}:${o.remoteId}`)).size).toBe(objects.length);

    const members = await rows(app, MEMBERS);
    const of = (list: number) =>
      members
        .filter((m) => Number(m.listId) === list)
        .map((m) => Number(m.pinpointId))
        .sort();
    expect(of(seeded.lists[0])).toEqual(
      remote.lists
        .find((l) => l.id === seeded.lists[0])
        ?.members.slice()
        .sort()
    );
    expect(of(seeded.lists[1])).toHaveLength(5);

    // Pages followed as given: the first page of each collection is the only address built.
    const gets = pinpointGets(app.emulator, since);
    expect(gets).toHaveLength(3);
    expect(gets[0].path).toBe('/v3.0/pinpoints');
    // Nothing was written.
    expect(
      app.emulator
        .requests({ since })
        .filter((r) => r.method !== 'GET' && !r.path.startsWith('/v3.0/oauth2/'))
    ).toEqual([]);

    const status = await app.sync().status();
    expect(status.inventory).toMatchObject({
      state: 'done',
      lastCompleteAt: progress.lastCompleteAt,
    });
  });

  test('a failed page is asked again in place, not the walk from the start', async () => {
    // The second page fails twice, then passes.
    app.emulator.scriptFaults([
      { kind: 'pass', method: 'GET', pathPrefix: '/v3.0/pinpoints' },
      {
        kind: 'status',
        status: 503,
        method: 'GET',
        pathPrefix: '/v3.0/pinpoints',
      },
      { kind: 'reset-before', method: 'GET', pathPrefix: '/v3.0/pinpoints' },
    ]);
    const since = mark(app.emulator);
    await app.sync().inventory();
    const gets = pinpointGets(app.emulator, since);
    expect(gets.map((r) => r.status)).toEqual([200, 503, null, 200, 200]);
    expect(gets.filter((r) => r.path === '/v3.0/pinpoints')).toHaveLength(1);
    expect(gets[1].path).toBe(gets[3].path);
    expect((await app.sync().status()).inventory.held.pinpoint).toBe(45);
  });

  test('objects gone from the remote leave the table after a complete walk; new ones come in', async () => {
    const { access_token } = app.emulator.issueToken();
    await fetch(`${app.emulator.baseUrl}/v3.0/pinpoints/${seeded.pinpoints[3]}`, {
      method: 'DELETE',
      headers: { Authorization: `Bearer ${access_token}` },
    });
    const [added] = app.emulator.seed('pinpoints', [
      { name: 'Newcomer', latitude: 1, longitude: 2 },
    ]);
    await app.sync().inventory();
    const ids = (await rows(app, INVENTORY))
      .filter((o) => o.resource === 'pinpoint')
      .map((o) => Number(o.remoteId));
    expect(ids).not.toContain(seeded.pinpoints[3]);
    expect(ids).toContain(added);
    expect(ids).toHaveLength(45);
    // The deleted pinpoint also left list A.
    const members = (await rows(app, MEMBERS))
      .filter((m) => Number(m.listId) === seeded.lists[0])
      .map((m) => Number(m.pinpointId));
    expect(members).toHaveLength(24);
    expect(members).not.toContain(seeded.pinpoints[3]);
  });
});

describe('an inventory walk that fails', () => {
  let emulator: EmulatorHandle;
  let appDir: string;
  let app: TestApp | undefined;

  beforeAll(async () => {
    emulator = await startEmulator({ strict: true, pageSize: 10 });
    appDir = await makeAppDir();
    emulator.seed(
      'pinpoints',
      Array.from({ length: 35 }, (_, i) => ({
        name: `P${i}`,
        latitude: i,
        longitude: i,
      }))
    );
  });

  afterAll(async () => {
    await app?.stop();
    await emulator.stop();
    await removeDir(appDir);
  });

  test('resumes from the last page reached, after a restart too', async () => {
    app = await startApp({ appDir, emulatorHandle: emulator });
    // Page 1 and 2 pass; page 3 fails every time it is asked (8 attempts).
    emulator.scriptFaults([
      { kind: 'pass', method: 'GET', pathPrefix: '/v3.0/pinpoints' },
      { kind: 'pass', method: 'GET', pathPrefix: '/v3.0/pinpoints' },
      ...Array.from({ length: 8 }, () => ({
        kind: 'status' as const,
        status: 503,
        method: 'GET',
        pathPrefix: '/v3.0/pinpoints',
      })),
    ]);
    const since = mark(emulator);
    await expect(app.sync().inventory()).rejects.toThrow(/503/);
    const failed = (await app.sync().status()).inventory;
    expect(failed).toMatchObject({ state: 'failed' });
    expect(failed.error).toMatch(/503/);
    const third = pinpointGets(emulator, since)[2].path;
    expect(third).not.toBe('/v3.0/pinpoints');
    // One readable line, not one per attempt.
    expect(app.logs.filter((l) => l.includes('the inventory walk stopped'))).toHaveLength(1);

    // A restart: the walk goes on by itself from the page that failed.
    await app.stop();
    const restart = mark(emulator);
    app = await startApp({ appDir, emulatorHandle: emulator });
    const done = await (async () => {
      for (let i = 0; i < 400; i++) {
        const inv = (await app!.sync().status()).inventory;
        if (inv.state === 'done') return inv;
        await new Promise((r) => setTimeout(r, 50));
      }
      throw new Error('the walk did not resume');
    })();
    expect(done.held.pinpoint).toBe(35);
    const after = pinpointGets(emulator, restart);
    expect(after[0].path).toBe(third);
    expect(after.some((r) => r.path === '/v3.0/pinpoints')).toBe(false);
  });

  test('walks again from the start when the remote refuses the stored link', async () => {
    await app!.sync().inventory();
    // A walk stops after page 1 (its next link is stored), and the emulator forgets its cursor key.
    emulator.scriptFaults([
      { kind: 'pass', method: 'GET', pathPrefix: '/v3.0/pinpoints' },
      ...Array.from({ length: 8 }, () => ({
        kind: 'status' as const,
        status: 503,
        method: 'GET',
        pathPrefix: '/v3.0/pinpoints',
      })),
    ]);
    await expect(app!.sync().inventory()).rejects.toThrow(/503/);
    // The stored link is refused (an expired cursor): 404, as the emulator answers an edited one.
    emulator.scriptFaults([
      {
        kind: 'status',
        status: 404,
        body: { detail: 'Invalid cursor' },
        method: 'GET',
        pathPrefix: '/v3.0/pinpoints',
      },
    ]);
    const since = mark(emulator);
    const progress = await app!.sync().inventory();
    expect(progress.held.pinpoint).toBe(35);
    const gets = pinpointGets(emulator, since);
    expect(gets.map((r) => r.status)).toEqual([404, 200, 200, 200, 200]);
    expect(gets[0].path).not.toBe('/v3.0/pinpoints');
    expect(gets[1].path).toBe('/v3.0/pinpoints');
    expect(app!.logs.filter((l) => l.includes('walking it again from the start'))).toHaveLength(1);
  });
});
