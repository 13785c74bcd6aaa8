/**
 * Two Strapi instances on one PostgreSQL database, linked to an account never walked: one of them
 * walks it (the lease), and the other one uses that walk (its inventory progress, the end of the
 * walk for a lost create) instead of walking the account again. Skipped, with the reason, only
 * when PostgreSQL cannot be found or installed (as drift-schedule).
 */
jest.setTimeout(300_000);
import { startEmulator, type EmulatorHandle } from '../../emulator/src';
import { makeAppDir, removeDir } from '../helpers/app-dir';
import { startChildApp, type ChildApp, type ChildState } from '../helpers/child-app';
import type { DbServer } from '../helpers/db-server';
import { ensurePostgres, startCluster } from '../helpers/postgres';

const found = ensurePostgres();
if (!found.bin) {
  console.warn(`inventory-link-replicas skipped: ${found.reason}`);
}
const describeWithPg = found.bin ? describe : describe.skip;

/** 10 pages of pinpoints; the walk is held on its second page until the second instance is up. */
const PINPOINTS = 200;

describeWithPg('the walk at linking with two instances on one database', () => {
  let pg: DbServer;
  let emu: EmulatorHandle;
  const dirs: string[] = [];
  const apps: ChildApp[] = [];

  const boot = async (linkWalk: 'background' | 'wait') => {
    const appDir = await makeAppDir();
    dirs.push(appDir);
    const app = await startChildApp({
      appDir,
      emulator: { baseUrl: emu.baseUrl, clientId: emu.clientId, clientSecret: emu.clientSecret },
      env: { ...pg.env, DATABASE_POOL_MAX: '6', LC_CHILD_LINK_WALK: linkWalk },
      patch: {
        config: {
          rateLimit: { requestsPerSecond: 500, concurrency: 4 },
          retry: { baseMs: 50, maxMs: 500, maxAttempts: 8 },
          // The held page waits for the second boot, however slow: it must not time out meanwhile.
          requestTimeoutMs: 120_000,
        },
      },
    });
    apps.push(app);
    return app;
  };

  /** GETs of the first page of the pinpoint collection: one per walk of it. */
  const walks = () => emu.requests({ method: 'GET' }).filter((r) => r.path === '/v3.0/pinpoints');

  beforeAll(async () => {
    pg = await startCluster(found.bin!);
    emu = await startEmulator({ strict: true, pageSize: 20, pagination: 'offset' });
    emu.seed(
      'pinpoints',
      Array.from({ length: PINPOINTS }, (_, i) => ({
        name: `Existing ${i}`,
        latitude: 40 + i / 1000,
        longitude: 3,
      }))
    );
  });

  afterAll(async () => {
    for (const a of apps) await a.stop().catch(() => a.kill());
    await emu?.stop();
    await pg?.stop();
    for (const d of dirs) await removeDir(d);
  });

  test('one instance walks; the other one sees its walk and reads its end for a lost create', async () => {
    const page = { method: 'GET', pathPrefix: '/v3.0/pinpoints' };
    emu.scriptFaults([
      { kind: 'pass', ...page },
      { kind: 'hold', ...page },
    ]);
    const a = await boot('background');
    const b = await boot('background');
    // The first walk is under way (held) while the second instance boots and looks.
    expect((await a.call('status')).inventory.state).toBe('running');
    expect((await b.call('status')).inventory.state).not.toBe('running');
    expect(emu.release()).toBe(1);

    for (const end = Date.now() + 120_000; ;) {
      if ((await a.call('status')).inventory.lastCompleteAt) break;
      if (Date.now() > end) throw new Error('the walk of the linked account did not end');
      await new Promise((r) => setTimeout(r, 200));
    }
    expect(walks()).toHaveLength(1);
    // The second instance shows the first one's walk (read again from the database, which it does
    // at most once a second).
    let seen = await b.call('status');
    for (const end = Date.now() + 60_000; seen.inventory.state !== 'done' && Date.now() < end;) {
      await new Promise((r) => setTimeout(r, 200));
      seen = await b.call('status');
    }
    expect(seen.inventory).toMatchObject({
      state: 'done',
      held: expect.objectContaining({ pinpoint: PINPOINTS }),
    });

    // A create whose answer is lost, pushed by the second instance alone: it reads the end of the
    // first instance's walk (a few pages), not the 10 pages of the account.
    await a.run((strapi) => strapi.config.set('plugin::location-content.syncEnabled', false));
    const since = emu.requests().at(-1)?.seq ?? 0;
    emu.scriptFaults([{ kind: 'reset-after', method: 'POST', pathPrefix: '/v3.0/pinpoints' }]);
    await b.call('seedPlaces', { count: 1, prefix: 'Lost answer' });
    await b.call('resync');
    await b.call('idle');
    const states = await b.call<ChildState[]>('states');
    expect(states).toHaveLength(1);
    expect(states[0]).toMatchObject({ status: 'synced' });
    expect(emu.state().pinpoints.filter((p) => p.name.startsWith('Lost answer'))).toHaveLength(1);
    const gets = emu
      .requests({ since, method: 'GET' })
      .filter((r) => r.path.startsWith('/v3.0/pinpoints'));
    expect(gets.length).toBeGreaterThan(0);
    expect(gets.length).toBeLessThanOrEqual(4);
  });
});
