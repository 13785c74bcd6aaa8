jest.setTimeout(180_000);
import { startEmulator, type EmulatorHandle } from '../../emulator/src';
import { makeAppDir, removeDir, startApp, strapiGlobal, type TestApp } from '../helpers/strapi';
import { PLACE, docs, mark, stateOf, until } from '../helpers/sync';

/**
 * An account is walked into the inventory once, in the background, when the plugin is linked to
 * it: at the first boot with its credentials, and again when the credentials name another account.
 */

async function seededEmulator(pinpoints: number, prefix: string) {
  const emulator = await startEmulator({ strict: true, pageSize: 20, pagination: 'offset' });
  emulator.seed('categories', [{ name: `${prefix} icon` }]);
  emulator.seed(
    'pinpoints',
    Array.from({ length: pinpoints }, (_, i) => ({
      name: `${prefix} ${i}`,
      latitude: 45 + i / 1000,
      longitude: 5,
    }))
  );
  return emulator;
}

const gets = (emulator: EmulatorHandle, since: number) =>
  emulator.requests({ since, method: 'GET' }).length;

const progressOf = async (app: TestApp) => (await app.sync().status()).inventory;

/** The jest worker's own process (the sandbox's is a copy), which the apps' Strapi listens on. */
const signalListeners = () => {
  const worker = strapiGlobal().process as NodeJS.Process;
  return { SIGTERM: worker.listenerCount('SIGTERM'), SIGINT: worker.listenerCount('SIGINT') };
};

const walked = (app: TestApp) =>
  until(async () => {
    const p = await progressOf(app);
    return p.lastCompleteAt ? p : null;
  }, 'the inventory walk of the linked account');

describe('the linked account is walked once', () => {
  let first: EmulatorHandle;
  let second: EmulatorHandle;
  let appDir: string;
  let app: TestApp | undefined;
  let listeners: ReturnType<typeof signalListeners>;

  beforeAll(async () => {
    listeners = signalListeners();
    first = await seededEmulator(45, 'First');
    second = await seededEmulator(3, 'Second');
    appDir = await makeAppDir();
  });

  afterEach(async () => {
    await app?.stop();
    app = undefined;
    // The harness's: each boot adds Strapi's SIGTERM and SIGINT; a stop that kept them would pile
    // up a pair (and the dead Strapi they hold) per boot in the worker, past Node's warning at 10.
    expect(signalListeners()).toEqual(listeners);
  });

  afterAll(async () => {
    await first.stop();
    await second.stop();
    await removeDir(appDir);
  });

  test('at the first boot with credentials, without being asked, behind the pushes', async () => {
    const since = mark(first);
    app = await startApp({ appDir, emulatorHandle: first });
    // A publish right away goes out while the walk runs: neither waits for the other to finish.
    const place = await docs(app.strapi, PLACE).create({
      data: { title: 'New place', geo: { lat: 44, lng: 4 } },
      status: 'published',
    });
    const progress = await walked(app);
    expect(progress).toMatchObject({
      state: 'done',
      error: null,
      held: { pinpoint: 45, category: 1, event: 0, list: 0 },
    });
    await app.sync().idle();
    expect((await stateOf(app, PLACE, place.documentId))?.status).toBe('synced');
    // Its own create is in the inventory only if the walk read it: never counted as someone else's.
    expect(progress.unowned).toBe(45 + 1);
    // 3 pages of pinpoints, one of categories, of events and of lists.
    expect(gets(first, since)).toBe(6);
  });

  test('not again at the next boot on the same account', async () => {
    app = await startApp({ appDir, emulatorHandle: first });
    const since = mark(first);
    const before = await progressOf(app);
    expect(before.lastCompleteAt).not.toBeNull();
    await app.sync().idle();
    await new Promise((r) => setTimeout(r, 300));
    expect(gets(first, since)).toBe(0);
    expect((await progressOf(app)).lastCompleteAt).toBe(before.lastCompleteAt);
  });

  test("credentials naming another account drop the first one's objects and walk the new one", async () => {
    const since = mark(second);
    app = await startApp({ appDir, emulatorHandle: second });
    const progress = await walked(app);
    expect(progress.held).toMatchObject({ pinpoint: 3, category: 1 });
    const names = (
      (await app.strapi.db
        .query('plugin::location-content.inventory-object')
        .findMany({ select: ['name'] })) as Array<{ name: string }>
    ).map((r) => r.name);
    expect(names.some((n) => n.startsWith('First'))).toBe(false);
    expect(gets(second, since)).toBe(4);
  });
});

describe('no walk when linking is not to walk', () => {
  test.each([
    ['walkOnLink is false', { walkOnLink: false }],
    ['the sync is off', { syncEnabled: false }],
  ])('%s', async (_label, patch) => {
    const emulator = await seededEmulator(25, 'Quiet');
    const app = await startApp({
      emulatorHandle: emulator,
      patchConfig: (config) => {
        Object.assign(config['location-content'].config, patch);
        return config;
      },
    });
    try {
      await app.sync().idle();
      await new Promise((r) => setTimeout(r, 300));
      expect(gets(emulator, 0)).toBe(0);
      expect((await progressOf(app)).lastCompleteAt).toBeNull();
      // Asked for, it walks as before.
      expect((await app.sync().inventory()).held).toMatchObject({ pinpoint: 25 });
    } finally {
      await app.stop();
      await emulator.stop();
      await removeDir(app.appDir);
    }
  });
});
