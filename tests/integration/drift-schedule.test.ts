/**
 * The scheduled check of the remote (`reconcile` in the plugin config), with two Strapi instances
 * on one PostgreSQL database: Strapi's cron fires on both, one of them runs each firing. Skipped,
 * with the reason, only when PostgreSQL cannot be found or installed (as fault-replicas).
 */
jest.setTimeout(300_000);
import type { Core } from '@strapi/strapi';
import { startEmulator, type EmulatorHandle } from '../../emulator/src';
import { makeAppDir, removeDir } from '../helpers/app-dir';
import { startChildApp, type ChildApp, type ChildState } from '../helpers/child-app';
import type { DbServer } from '../helpers/db-server';
import { ensurePostgres, startCluster } from '../helpers/postgres';

const found = ensurePostgres();
if (!found.bin) {
  console.warn(`drift-schedule skipped: ${found.reason}`);
}
const describeWithPg = found.bin ? describe : describe.skip;

describeWithPg('the scheduled check with two instances on one database', () => {
  let pg: DbServer;
  let emu: EmulatorHandle;
  const dirs: string[] = [];
  const apps: ChildApp[] = [];

  beforeAll(async () => {
    pg = await startCluster(found.bin!);
    emu = await startEmulator({
      strict: true,
      clients: [
        { clientId: 'replica-a', clientSecret: 'secret-a' },
        { clientId: 'replica-b', clientSecret: 'secret-b' },
      ],
    });
    for (const id of ['a', 'b']) {
      const appDir = await makeAppDir();
      dirs.push(appDir);
      apps.push(
        await startChildApp({
          appDir,
          emulator: {
            baseUrl: emu.baseUrl,
            clientId: `replica-${id}`,
            clientSecret: `secret-${id}`,
          },
          env: { ...pg.env, DATABASE_POOL_MAX: '6' },
          patch: {
            config: {
              rateLimit: { requestsPerSecond: 500, concurrency: 4 },
              retry: { baseMs: 50, maxMs: 500, maxAttempts: 8 },
              reconcile: { cron: '*/2 * * * * *', repair: 'missing' },
            },
          },
        })
      );
    }
  });

  afterAll(async () => {
    for (const a of apps) await a.stop().catch(() => a.kill());
    await emu?.stop();
    await pg?.stop();
    for (const d of dirs) await removeDir(d);
  });

  /** First pages of the category collection: each check walks it once, from the start. */
  const walks = (since: number) =>
    emu.requests({ since, method: 'GET' }).filter((r) => r.path === '/v3.0/categories');
  const lastSeq = () => emu.requests().at(-1)?.seq ?? 0;

  test("Strapi's cron runs the check, and the missing repair, by itself", async () => {
    const [a, b] = apps;
    await a.call('seedPlaces', { count: 5, prefix: 'Scheduled' });
    await a.call('resync');
    await Promise.all([a.call('idle'), b.call('idle')]);
    const states = await a.call<ChildState[]>('states');
    const victim = states[0];
    const { access_token } = emu.issueToken('replica-a');
    const res = await fetch(`${emu.baseUrl}/v3.0/pinpoints/${victim.remoteId}`, {
      method: 'DELETE',
      headers: { Authorization: `Bearer ${access_token}` },
    });
    expect(res.status).toBe(204);

    // Recreated by a scheduled run (repair: 'missing'), with no call from the test.
    for (let end = Date.now() + 120_000; ;) {
      const now = await a.call<ChildState[]>('states');
      const s = now.find((x) => x.documentId === victim.documentId);
      if (
        s?.status === 'synced' &&
        s.remoteId !== victim.remoteId &&
        emu.state().pinpoints.some((p) => p.id === s.remoteId)
      )
        break;
      if (Date.now() > end) throw new Error('no scheduled run recreated the deleted pinpoint');
      await new Promise((r) => setTimeout(r, 250));
    }
    const status = await b.call('status');
    expect(status.reconcile).toMatchObject({
      cron: '*/2 * * * * *',
      repair: 'missing',
      lastRun: { outcome: expect.stringMatching(/done|running/) },
    });
    expect(emu.state().pinpoints).toHaveLength(5);
  });

  test('each firing is run by one instance only', async () => {
    const [a, b] = apps;
    // The rule stops here; the firings below are the cron's own task, called as it calls it. A
    // slow remote keeps a firing walking when it stops (as load once did): the stop waits for it,
    // else the first firing below would share (or, on the other instance, resume) that walk and
    // ask no page of its own.
    emu.setFaults({ rules: [{ kind: 'latency', latencyMs: 1500, method: 'GET' }] });
    await new Promise((r) => setTimeout(r, 3000));
    await Promise.all(
      apps.map((app) =>
        app.run((strapi) => strapi.plugin('location-content').service('drift').reconcile.stop())
      )
    );
    emu.setFaults(null);
    await Promise.all([a.call('idle'), b.call('idle')]);

    const since = lastSeq();
    const base = Math.ceil(Date.now() / 1000) * 1000 + 60_000;
    const ran: Array<[unknown, unknown]> = [];
    for (let i = 0; i < 4; i++) {
      const at = new Date(base + i * 2000).toISOString();
      const fire = (strapi: Core.Strapi, iso: string) =>
        strapi.plugin('location-content').service('sync').reconcileNow(new Date(iso));
      ran.push(await Promise.all([a.run(fire, at), b.run(fire, at)]));
    }
    for (const [ra, rb] of ran) expect([ra, rb].filter(Boolean)).toHaveLength(1);
    expect(walks(since)).toHaveLength(4);
    // A firing already run is not run again, even late on another instance.
    const again = await b.run(
      (strapi: Core.Strapi, iso: string) =>
        strapi.plugin('location-content').service('sync').reconcileNow(new Date(iso)),
      new Date(base).toISOString()
    );
    expect(again).toBeNull();
    const status = await a.call('status');
    expect(status.reconcile.lastRun).toMatchObject({
      outcome: 'done',
      error: null,
      found: { missing: 0, changed: 0, membership: 0, notOurs: 0 },
    });
  });
});
