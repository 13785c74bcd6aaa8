/**
 * The `location-content` CLI beside a running Strapi on the same database (PostgreSQL: two
 * processes on one database need a server; a private one on 127.0.0.1, tests/helpers/postgres.ts).
 * Each process talks to the emulator as its own client, so the request log says who sent what.
 * Without --wait the CLI only lists the entries into the outbox and the server pushes them; with
 * --wait both workers drain the outbox under its lease: every entry is created once, nothing twice.
 *
 *   npm run build && npx jest --selectProjects e2e -- tests/e2e/cli-beside-server.test.ts
 */
import { startEmulator, type EmulatorHandle } from '../../emulator/src';
import { removeDir } from '../helpers/app-dir';
import { startChildApp, type ChildApp } from '../helpers/child-app';
import type { DbServer } from '../helpers/db-server';
import { ensurePostgres, startCluster } from '../helpers/postgres';
import { makeJavaScriptApp, runCli, type CliParts } from './cli-run';

jest.setTimeout(300_000);

const SEEDED = 100;
const found = ensurePostgres({ install: false });
if (!found.bin) console.warn(`cli-beside-server left out: ${found.reason}`);

(found.bin ? describe : describe.skip)('the CLI beside a running Strapi (PostgreSQL)', () => {
  let pg: DbServer;
  let emu: EmulatorHandle;
  let server: ChildApp;
  let appDir: string;
  const client = (id: string) => ({
    baseUrl: emu.baseUrl,
    clientId: id,
    clientSecret: `${id}-secret`,
  });
  const cli = (args: string[]) =>
    runCli({
      appDir,
      args,
      emulator: client('cli'),
      env: { ...pg.env, LOCATION_CONTENT_CONFIG_PATCH: JSON.stringify(PATCH) },
    });
  // A worker claims up to 2 s of the rate limit at once (here 60 rows, 10 a claim): at 30 pushes a
  // second per process, the CLI's worker cannot take every row before the server's poll (every
  // second) takes some.
  const PATCH = { config: { rateLimit: { requestsPerSecond: 30, concurrency: 4 }, batchSize: 10 } };
  const creates = (by?: string) =>
    emu
      .requests()
      .filter((r) => r.method === 'POST' && r.path === '/v3.0/pinpoints')
      .filter((r) => !by || r.clientId === by);
  const apiCalls = (by: string) =>
    emu.requests().filter((r) => r.clientId === by && !r.path.startsWith('/v3.0/oauth2/'));

  beforeAll(async () => {
    pg = await startCluster(found.bin!, { database: 'lc_cli' });
    emu = await startEmulator({
      requestLogSize: 20_000,
      clients: [
        { clientId: 'server', clientSecret: 'server-secret' },
        { clientId: 'cli', clientSecret: 'cli-secret' },
      ],
      // writes take a little while, so that both workers have rows in flight at once
      faults: {
        seed: 5,
        rules: [{ kind: 'latency', latencyMs: [5, 20], method: ['POST', 'PUT'] }],
      },
    });
    appDir = await makeJavaScriptApp();
    server = await startChildApp({ appDir, emulator: client('server'), env: pg.env, patch: PATCH });
  });

  afterAll(async () => {
    await server?.stop().catch(() => server.kill());
    await emu?.stop();
    await pg?.stop();
    if (appDir) await removeDir(appDir);
  });

  test('resync without --wait: the CLI lists the entries and exits; the server pushes them, the CLI pushes nothing', async () => {
    await server.call('seedPlaces', { count: SEEDED, prefix: 'First' });
    const run = await cli(['resync', '--json']);
    expect(run.code).toBe(0);
    expect(run.json<CliParts['resync']>().job.total).toBe(SEEDED);
    await server.call('idle', { timeoutMs: 120_000 });
    expect(creates('server')).toHaveLength(SEEDED);
    expect(apiCalls('cli')).toEqual([]);
  });

  test('resync --wait beside the server: both workers push, each entry is created once, nothing is pushed twice', async () => {
    await server.call('seedPlaces', { count: SEEDED, prefix: 'Second', start: SEEDED });
    const before = creates().length;
    const run = await cli(['resync', '--wait', '--json']);
    expect(run.code).toBe(0);
    const doc = run.json<CliParts['resync']>();
    expect(doc.status.counts).toMatchObject({ synced: 2 * SEEDED, failed: 0, pending: 0 });
    const made = creates().slice(before);
    expect(made).toHaveLength(SEEDED);
    expect(new Set(emu.state().pinpoints.map((p) => p.name)).size).toBe(2 * SEEDED);
    expect(emu.state().pinpoints).toHaveLength(2 * SEEDED);
    // the first half was unchanged: no update at all
    expect(emu.requests().filter((r) => r.method === 'PUT')).toEqual([]);
    // the work was shared (the lease, not luck, kept it single)
    expect(made.filter((r) => r.clientId === 'cli').length).toBeGreaterThan(0);
    expect(made.filter((r) => r.clientId === 'server').length).toBeGreaterThan(0);
    // the server runs on
    expect(await server.call('ping')).toBe('pong');
  });
});
