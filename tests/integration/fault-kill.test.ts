/**
 * kill -9 of Strapi in the middle of a 2,000-entry resync, then a restart on the same database:
 * every entry ends synced, no remote object is lost, none is duplicated.
 *
 * Strapi runs in a child process (tests/helpers/strapi-child.ts) so that it can be SIGKILLed; the
 * emulator runs here, in jest's process, and survives the kill like a real remote would.
 * The child's SQLite runs in WAL mode (synchronous=NORMAL) to keep the run short: a process
 * crash loses no committed transaction in that mode either (only an OS crash could).
 */
// A database server adds a round trip per statement: 2,000 entries take longer there than on SQLite (257-300 s under a load of 15).
jest.setTimeout(process.env.LC_TEST_DB && process.env.LC_TEST_DB !== 'sqlite' ? 600_000 : 300_000);
import { startEmulator, type EmulatorHandle } from '../../emulator/src';
import { makeAppDir, removeDir } from '../helpers/app-dir';
import { startChildApp, type ChildApp } from '../helpers/child-app';
import { titleOf } from '../helpers/seed';
import { until } from '../helpers/sync';

const COUNT = 2_000;
const PREFIX = 'Kill';

let emu: EmulatorHandle;
let appDir: string;
const apps: ChildApp[] = [];

const created = () => emu.stats().byRoute['POST /v3.0/pinpoints']?.['201'] ?? 0;

beforeAll(async () => {
  // A little latency on writes, so that POSTs are in flight when the process dies.
  emu = await startEmulator({
    strict: true,
    requestLogSize: 50_000,
    faults: { seed: 7, rules: [{ kind: 'latency', latencyMs: [1, 10], method: ['POST', 'PUT'] }] },
  });
  appDir = await makeAppDir();
});

afterAll(async () => {
  for (const a of apps) await a.kill('SIGKILL').catch(() => undefined);
  await emu?.stop();
  if (appDir) await removeDir(appDir);
});

test('kill -9 mid-resync of 2,000 entries: after a restart every entry is synced, none lost, none twice', async () => {
  const config = {
    syncEnabled: false,
    // The dead process's leases must run out before the restart can take its rows again.
    leaseMs: 3_000,
    rateLimit: { requestsPerSecond: 2_000, concurrency: 4 },
    retry: { baseMs: 100, maxMs: 1_000, maxAttempts: 12 },
  };
  const first = await startChildApp({ appDir, emulator: emu, patch: { config } });
  apps.push(first);
  await first.run(async (strapi) => {
    if (strapi.db.dialect.client === 'sqlite')
      await strapi.db.connection.raw('PRAGMA journal_mode = WAL');
    return null;
  });
  const { documentIds } = await first.call('seedPlaces', { count: COUNT, prefix: PREFIX });
  await first.run(async (strapi) => {
    strapi.config.set('plugin::location-content.syncEnabled', true);
    return null;
  });
  await first.call('resync');

  await until(() => created() >= COUNT / 3, 'a third of the pinpoints to be created', 180_000);
  await first.kill('SIGKILL');
  const atKill = created();
  expect(atKill).toBeLessThan(COUNT);
  // Whatever the dead process had sent is done arriving.
  await new Promise((r) => setTimeout(r, 200));
  const seqAtKill = emu.requests().at(-1)?.seq ?? 0;

  const second = await startChildApp({
    appDir,
    emulator: emu,
    patch: { config: { ...config, syncEnabled: true } },
  });
  apps.push(second);
  // The resync resumes by itself after the restart: nobody calls resync() again. Asked four
  // times a second: each status report is a round of queries the resync waits behind.
  const status = await until(
    async () => {
      const s = await second.call('status');
      return s.resync?.state === 'done' && s.queue.depth === 0 ? s : null;
    },
    'the resumed resync to finish',
    240_000,
    250
  );
  await second.call('idle', { timeoutMs: 60_000 });

  // Every entry synced, each with its own remote object.
  const states: Array<{
    documentId: string;
    status: string;
    remoteId: number | null;
    lastError: string | null;
  }> = await second.call('states');
  expect(states).toHaveLength(COUNT);
  const notSynced = states.filter((s) => s.status !== 'synced' || s.remoteId == null);
  expect(notSynced).toEqual([]);
  const remoteIds = new Set(states.map((s) => s.remoteId));
  expect(remoteIds.size).toBe(COUNT);

  // The remote holds exactly those objects: nothing lost, nothing twice, each with its entry's name.
  const remote = emu.state().pinpoints;
  expect(remote).toHaveLength(COUNT);
  expect(new Set(remote.map((p) => p.id))).toEqual(remoteIds);
  const titleByDoc = new Map(documentIds.map((d: string, i: number) => [d, titleOf(PREFIX, i)]));
  const nameById = new Map(remote.map((p) => [p.id, p.name]));
  const wrong = states.filter((s) => nameById.get(s.remoteId!) !== titleByDoc.get(s.documentId));
  expect(wrong).toEqual([]);
  expect(new Set(remote.map((p) => p.name)).size).toBe(COUNT);
  expect(status.counts).toMatchObject({ synced: COUNT, failed: 0, pending: 0 });

  // What the restart did: the rest of the creates, plus the recovery of answers the kill lost.
  const after = emu
    .requests({ since: seqAtKill })
    .filter((r) => !r.path.startsWith('/v3.0/oauth2/'));
  const postsAfter = after.filter((r) => r.method === 'POST' && r.status === 201).length;
  const adopted = after.filter((r) => r.method === 'PUT').length;
  expect(created()).toBe(COUNT);
  console.info(
    `kill -9 after ${atKill} creates; the restart created ${postsAfter} and adopted ${adopted} objects whose answer the kill lost (${after.length} API calls)`
  );
});
