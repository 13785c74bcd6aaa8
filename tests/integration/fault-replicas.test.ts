/**
 * Two Strapi instances on one database, so two workers on one outbox: each change is pushed
 * exactly once (the emulator's request log shows one POST per entry), whichever instance
 * recorded it, and both instances share the work.
 *
 * Runs in the integration-postgres and integration-mariadb projects (jest.config.js), on the
 * throw-away server of the run (tests/helpers/test-db.ts): SQLite has no second instance.
 */
jest.setTimeout(300_000);
import type { Core } from '@strapi/strapi';
import { startEmulator, type EmulatorHandle } from '../../emulator/src';
import { makeAppDir, removeDir } from '../helpers/app-dir';
import { startChildApp, type ChildApp, type ChildState } from '../helpers/child-app';
import { databaseEnv, databaseName, kind } from '../helpers/test-db';
import { titleOf } from '../helpers/seed';

const SEEDED = 600;
const EDITED = 40;

(kind() === 'sqlite' ? describe.skip : describe)(`two instances on one ${kind()} outbox`, () => {
  let emu: EmulatorHandle;
  const dirs: string[] = [];
  const apps: ChildApp[] = [];

  beforeAll(async () => {
    // One client per instance, so the log says which instance sent what. Writes take a little
    // while, so both workers always have rows in flight at the same time.
    emu = await startEmulator({
      strict: true,
      requestLogSize: 50_000,
      clients: [
        { clientId: 'replica-a', clientSecret: 'secret-a' },
        { clientId: 'replica-b', clientSecret: 'secret-b' },
      ],
      faults: {
        seed: 3,
        rules: [{ kind: 'latency', latencyMs: [5, 25], method: ['POST', 'PUT', 'DELETE'] }],
      },
    });
    let shared: string | undefined;
    for (const [i, id] of ['a', 'b'].entries()) {
      const appDir = await makeAppDir();
      dirs.push(appDir);
      // Both on the first app's database.
      shared ??= databaseName(appDir);
      // One after the other: the first boot creates the schema.
      apps.push(
        await startChildApp({
          appDir,
          emulator: {
            baseUrl: emu.baseUrl,
            clientId: `replica-${id}`,
            clientSecret: `secret-${id}`,
          },
          env: { ...databaseEnv(appDir, { database: shared }), DATABASE_POOL_MAX: '6' },
          patch: {
            config: {
              rateLimit: { requestsPerSecond: 500, concurrency: 4 },
              batchSize: 10 + i * 5,
              retry: { baseMs: 50, maxMs: 500, maxAttempts: 8 },
            },
          },
        })
      );
    }
  });

  afterAll(async () => {
    for (const a of apps) await a.stop().catch(() => a.kill());
    await emu?.stop();
    for (const d of dirs) await removeDir(d);
  });

  const api = () => emu.requests().filter((r) => !r.path.startsWith('/v3.0/oauth2/'));

  test('a resync drained by both workers, then editors on both instances: one POST per entry, nothing twice', async () => {
    const [a, b] = apps;
    const { documentIds } = await a.call('seedPlaces', { count: SEEDED, prefix: 'Replica' });
    await a.call('resync');
    // b reads the job as it starts: its copy must never stand for the job, nor be written back.
    expect((await b.call('status')).resync?.state).toBe('running');
    const done = async () => (await a.call('status')).resync?.state === 'done';
    for (let end = Date.now() + 180_000; !(await done());) {
      if (Date.now() > end) throw new Error('the resync did not finish');
      await new Promise((r) => setTimeout(r, 200));
    }
    // Past a few of b's 500 ms ticks: both see the end.
    await new Promise((r) => setTimeout(r, 1_500));
    expect((await a.call('status')).resync?.state).toBe('done');
    expect((await b.call('status')).resync?.state).toBe('done');
    await Promise.all([
      a.call('idle', { timeoutMs: 120_000 }),
      b.call('idle', { timeoutMs: 120_000 }),
    ]);

    // Editors on both instances at the same time: creates, and renames of the same entries from
    // both sides. Never the same entry at the same moment: Strapi's own publish is not safe
    // against two instances publishing one document at once (its unique check fails).
    const edit = async (
      strapi: Core.Strapi,
      { who, from, count, ids }: { who: string; from: number; count: number; ids: string[] }
    ) => {
      const PLACE = 'api::place.place';
      for (let i = 0; i < count; i++) {
        const p = await strapi.documents(PLACE).create({
          data: {
            title: `Edited on ${who} ${from + i}`,
            geo: { lat: 10 + (from + i) / 100, lng: who === 'a' ? 1 : 2 },
          } as Record<string, unknown>,
        });
        await strapi.documents(PLACE).publish({ documentId: p.documentId });
        await strapi.documents(PLACE).update({
          documentId: ids[i],
          data: { title: `Shared ${ids[i]} renamed on ${who}` } as Record<string, unknown>,
        });
        await strapi.documents(PLACE).publish({ documentId: ids[i] });
        // Separate requests in real life: let the event loop (and the worker) turn.
        await new Promise((r) => setImmediate(r));
      }
      return null;
    };
    const shared = documentIds.slice(0, EDITED);
    const half = EDITED / 2;
    const seq = emu.requests().at(-1)!.seq;
    await Promise.all([
      a.run(edit, { who: 'a', from: 0, count: half, ids: shared.slice(0, half) }),
      b.run(edit, { who: 'b', from: 0, count: half, ids: shared.slice(half) }),
    ]);
    await Promise.all([
      a.run(edit, { who: 'a', from: half, count: half, ids: shared.slice(half) }),
      b.run(edit, { who: 'b', from: half, count: half, ids: shared.slice(0, half) }),
    ]);
    await new Promise((r) => setTimeout(r, 500));
    await Promise.all([
      a.call('idle', { timeoutMs: 120_000 }),
      b.call('idle', { timeoutMs: 120_000 }),
    ]);

    const calls = api();
    const posts = calls.filter((r) => r.method === 'POST' && r.path === '/v3.0/pinpoints');
    // Exactly one POST per entry: the seeded ones and those the editors created.
    const byName = new Map<string, number>();
    for (const p of posts)
      byName.set(
        (p.body as { name: string }).name,
        (byName.get((p.body as { name: string }).name) ?? 0) + 1
      );
    const twice = [...byName].filter(([, n]) => n > 1);
    expect(twice).toEqual([]);
    expect(posts).toHaveLength(SEEDED + 2 * EDITED);
    expect(posts.every((p) => p.status === 201)).toBe(true);
    const missing = [
      ...Array.from({ length: SEEDED }, (_, i) => titleOf('Replica', i)),
      ...Array.from({ length: EDITED }, (_, i) => `Edited on a ${i}`),
      ...Array.from({ length: EDITED }, (_, i) => `Edited on b ${i}`),
    ].filter((name) => byName.get(name) !== 1);
    expect(missing).toEqual([]);

    // The remote holds one object per entry, each with the entry's current name.
    const remote = emu.state().pinpoints;
    expect(remote).toHaveLength(SEEDED + 2 * EDITED);
    const states = await a.call<ChildState[]>('states');
    expect(states.filter((s) => s.status !== 'synced')).toEqual([]);
    expect(new Set(states.map((s) => s.remoteId)).size).toBe(SEEDED + 2 * EDITED);
    const titles = await a.run(async (strapi, ids: string[]) => {
      const rows = await strapi.db.query('api::place.place').findMany({
        select: ['documentId', 'title'],
        where: { documentId: { $in: ids }, publishedAt: { $notNull: true } },
      });
      return Object.fromEntries(
        rows.map((r: { documentId: string; title: string }) => [r.documentId, r.title])
      );
    }, shared);
    for (const id of shared) {
      const s = states.find((x) => x.documentId === id);
      expect(remote.find((p) => p.id === s?.remoteId)?.name).toBe(titles[id]);
    }
    // Edits of one entry from both instances were coalesced, not pushed once per save per instance.
    const editPuts = calls.filter((r) => r.seq > seq && r.method === 'PUT').length;
    expect(editPuts).toBeLessThanOrEqual(2 * EDITED);

    // Both workers took rows from the one outbox.
    const byClient = {
      a: posts.filter((p) => p.clientId === 'replica-a').length,
      b: posts.filter((p) => p.clientId === 'replica-b').length,
    };
    expect(byClient.a).toBeGreaterThan(posts.length / 10);
    expect(byClient.b).toBeGreaterThan(posts.length / 10);
    console.info(
      `two workers, one outbox: ${posts.length} POSTs (${byClient.a} from a, ${byClient.b} from b), ${editPuts} PUTs for ${4 * EDITED} edits+publishes of ${EDITED} shared entries`
    );
  });

  test('a resync listed on one instance and pushed by the other counts the rows the other skipped', async () => {
    const [a, b] = apps;
    const total = SEEDED + 2 * EDITED;
    const pushes = (on: boolean) =>
      a.run(async (strapi, enabled: boolean) => {
        strapi.config.set('plugin::location-content.syncEnabled', enabled);
        return null;
      }, on);
    // How many of the job's rows b ends: all of them, a pushing none.
    await b.run(async (strapi) => {
      const resync = strapi.plugin('location-content').service('resync');
      const onRowDone = resync.onRowDone;
      const seen = ((globalThis as Record<string, unknown>).rowsEnded = { n: 0 });
      resync.onRowDone = (...args: unknown[]) => {
        seen.n += 1;
        return onRowDone(...args);
      };
      return null;
    });
    await pushes(false);
    try {
      // Nothing changed since the last test: every entry is skipped, on b.
      const job = await a.call<{ id: string }>('resync');
      const counted = async () => {
        const [ofA, ofB] = [(await a.call('status')).resync, (await b.call('status')).resync];
        return ofA?.state === 'done' && ofA.skipped === total && ofB?.skipped === total;
      };
      // b's last rows may be tallied just after a sees the end: within one of b's 500 ms ticks.
      for (let end = Date.now() + 120_000; !(await counted());) {
        if (Date.now() > end)
          throw new Error(`counts: ${JSON.stringify((await a.call('status')).resync)}`);
        await new Promise((r) => setTimeout(r, 200));
      }
      for (const app of [a, b])
        expect((await app.call('status')).resync).toMatchObject({
          id: job.id,
          state: 'done',
          total,
          done: 0,
          failed: 0,
          skipped: total,
        });
      const ended = await b.run(async () => (globalThis as { rowsEnded: { n: number } }).rowsEnded);
      expect(ended.n).toBe(total);
    } finally {
      await pushes(true);
    }
  });
});
