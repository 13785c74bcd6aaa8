/**
 * The `location-content` CLI as a user runs it: the built dist/cli/index.js, a child process in the
 * folder of a copy of the playground app, against the emulator; no Strapi server running. In a
 * JavaScript app (the playground without its tsconfig.json) and in a TypeScript app (the same app
 * with TypeScript config and sources, compiled by the CLI). The run beside a running Strapi on
 * one database is tests/e2e/cli-beside-server.test.ts.
 *
 *   npm run build && npx jest --selectProjects e2e -- tests/e2e/cli.test.ts
 */
import type { ChildProcess } from 'node:child_process';
import { existsSync, promises as fs } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { startEmulator, type EmulatorHandle } from '../../emulator/src';
import { makeAppDir, removeDir } from '../helpers/app-dir';
import { startChildApp } from '../helpers/child-app';
import { makeJavaScriptApp, runCli, type CliParts, type CliRun } from './cli-run';

jest.setTimeout(300_000);

let emu: EmulatorHandle;
const dirs: string[] = [];

beforeAll(async () => {
  emu = await startEmulator();
});

afterAll(async () => {
  await emu?.stop();
  for (const d of dirs) await removeDir(d);
});

/** A JavaScript copy of the playground, removed in afterAll (the TypeScript app is the first describe's). */
async function javaScriptApp(): Promise<string> {
  const appDir = await makeJavaScriptApp();
  dirs.push(appDir);
  return appDir;
}

type Ids = { louvre: string; orsay: string; nowhere: string; eiffel: string };

/**
 * Copies of the playground holding three valid places and one without coordinates, saved with
 * the sync off (so waiting in the outbox); one of them, Tour Eiffel, is on the remote already.
 * Seeded once: the TypeScript app is a copy of the folder (its SQLite database with it), made into
 * TypeScript; the JavaScript one is the seeded folder without its tsconfig.json.
 */
async function seedApps(): Promise<{ js: string; ts: string; ids: Ids }> {
  const js = await makeAppDir();
  dirs.push(js);
  const seeding = await startChildApp({
    appDir: js,
    emulator: emu,
    patch: { config: { syncEnabled: false } },
  });
  const ids = await seeding.run(async (strapi) => {
    const make = async (title: string, geo?: { lat: number; lng: number }) => {
      const p = await strapi
        .documents('api::place.place')
        .create({ data: { title, ...(geo ? { geo } : {}) } });
      await strapi.documents('api::place.place').publish({ documentId: p.documentId });
      return p.documentId;
    };
    return {
      louvre: await make('Louvre', { lat: 48.8606, lng: 2.3376 }),
      orsay: await make('Orsay', { lat: 48.86, lng: 2.3266 }),
      nowhere: await make('Nowhere'),
      eiffel: await make('Tour Eiffel', { lat: 48.8584, lng: 2.2945 }),
    };
  });
  await seeding.stop();
  // Seeded as the playground is (the child loads the app in place); then made what each is.
  const ts = `${js}-ts`;
  dirs.push(ts);
  await fs.cp(js, ts, { recursive: true });
  await makeTypeScript(ts);
  await fs.rm(path.join(js, 'tsconfig.json'));
  return { js, ts, ids };
}
let seeded: ReturnType<typeof seedApps> | undefined;

/**
 * The same app as a TypeScript one: a tsconfig.json with an outDir (as Strapi's TypeScript
 * template has), its config and its entry file in TypeScript (with types that plain Node would
 * refuse), the other files taken over as JavaScript.
 */
async function makeTypeScript(appDir: string) {
  await fs.writeFile(
    path.join(appDir, 'tsconfig.json'),
    JSON.stringify({
      extends: '@strapi/typescript-utils/tsconfigs/server',
      compilerOptions: {
        outDir: 'dist',
        rootDir: '.',
        allowJs: true,
        // next to the app, not next to the config this one extends (in node_modules)
        tsBuildInfoFile: './.tsbuildinfo',
      },
      include: ['./', './**/*.ts', './**/*.js', 'src/**/*.json'],
      exclude: ['node_modules/', 'dist/', '.tmp/', 'public/', 'database/', 'types/'],
    })
  );
  await fs.rm(path.join(appDir, 'config', 'server.js'));
  await fs.writeFile(
    path.join(appDir, 'config', 'server.ts'),
    `type Env = ((key: string, fallback?: string) => string) & { int: (key: string, fallback?: number) => number };
export default ({ env }: { env: Env }) => ({
  host: env('HOST', '127.0.0.1'),
  port: env.int('PORT', 1337),
  app: { keys: ['tsKeyA', 'tsKeyB'] as string[] },
});
`
  );
  await fs.rm(path.join(appDir, 'src', 'index.js'));
  await fs.writeFile(
    path.join(appDir, 'src', 'index.ts'),
    `import type { Core } from '@strapi/strapi';

export default {
  register() {},
  bootstrap({ strapi }: { strapi: Core.Strapi }) {
    strapi.log.warn('typescript app bootstrapped');
  },
};
`
  );
}

/** Writes sent to the remote's API (not the token requests). */
const writes = () =>
  emu.requests().filter((r) => r.method !== 'GET' && !r.path.startsWith('/v3.0/oauth2/'));

const remotePinpoints = () =>
  emu
    .state()
    .pinpoints.map((p) => p.name)
    .sort();

describe.each(['js', 'ts'] as const)('in a %s app', (variant) => {
  let appDir: string;
  let ids: Ids;
  let eiffel: { id: number };
  // The first case compiles the TypeScript app (and proves --no-compile); the others load that
  // build, as `strapi start` does: a compile per command (7 s each) would only prove it again.
  let compiled = false;
  // Once loaded, a command runs the same code in both apps: the TypeScript one proves its loading
  // (status, compiled and not) and a push from its build (link --wait); the other commands run
  // in the JavaScript app only, as a process each (a Strapi boot, 2 s of CPU) would prove no more.
  const jsOnly = variant === 'js' ? test : test.skip;
  const cli = (args: string[]): Promise<CliRun> =>
    runCli({ appDir, emulator: emu, args: compiled ? [...args, '--no-compile'] : args });

  beforeAll(async () => {
    emu.reset();
    emu.clearRequests();
    seeded ??= seedApps();
    const apps = await seeded;
    appDir = apps[variant];
    ids = apps.ids;
    // made elsewhere (the provider's portal, another tool) before the plugin was set up
    eiffel = emu.create('pinpoints', {
      name: 'Tour Eiffel',
      latitude: 48.8584,
      longitude: 2.2945,
    }) as { id: number };
  });

  test('status --json: one JSON document on stdout, nothing pushed yet, exit 0', async () => {
    const run = await cli(['status', '--json']);
    expect(run.code).toBe(0);
    const doc = run.json<CliParts['status']>();
    expect(doc).toMatchObject({ command: 'status', exitCode: 0, ok: true });
    expect(doc.status.counts).toMatchObject({ synced: 0, failed: 0 });
    // four saves recorded while the sync was off: still in the outbox
    expect(doc.status.queue.depth).toBe(4);
    expect(remotePinpoints()).toEqual(['Tour Eiffel']);
    if (variant === 'ts') {
      // the TypeScript sources ran, compiled into the tsconfig's outDir
      expect(existsSync(path.join(appDir, 'dist', 'config', 'server.js'))).toBe(true);
      expect(run.stderr).toContain('typescript app bootstrapped');
      // --no-compile loads the last build as it is (as `strapi start` does): an edit is not seen
      const index = path.join(appDir, 'src', 'index.ts');
      const source = await fs.readFile(index, 'utf8');
      await fs.writeFile(index, source.replace('app bootstrapped', 'app edited'));
      try {
        const built = await cli(['status', '--no-compile', '--json']);
        expect(built.code).toBe(0);
        expect(built.json<CliParts['status']>().status.queue.depth).toBe(4);
        expect(built.stderr).toContain('typescript app bootstrapped');
      } finally {
        await fs.writeFile(index, source);
      }
      compiled = true;
    } else expect(existsSync(path.join(appDir, 'dist'))).toBe(false);
  });

  jsOnly(
    'resync --dry-run: the plan, nothing sent; exit 1 because one entry would fail',
    async () => {
      const before = emu.requests().length;
      const run = await cli(['resync', '--dry-run', '--json']);
      expect(run.code).toBe(1);
      const { plan } = run.json<CliParts['resync']>();
      expect(plan.create.map((k) => k.documentId).sort()).toEqual(
        [ids.louvre, ids.orsay, ids.eiffel].sort()
      );
      expect(plan.failed).toEqual([
        expect.objectContaining({ documentId: ids.nowhere, reason: expect.stringMatching(/geo/) }),
      ]);
      expect(emu.requests().filter((r) => !r.path.startsWith('/v3.0/oauth2/')).length).toBe(
        emu
          .requests()
          .slice(0, before)
          .filter((r) => !r.path.startsWith('/v3.0/oauth2/')).length
      );
    }
  );

  jsOnly('link --dry-run: the entry is matched with the object already on the remote', async () => {
    const run = await cli(['link', '--dry-run', '--json']);
    expect(run.code).toBe(0);
    const doc = run.json<CliParts['link']>();
    expect(doc.proposal.linked).toEqual([
      expect.objectContaining({ documentId: ids.eiffel, remoteId: eiffel.id }),
    ]);
    expect(doc.proposal.applied).toBe(0);
    expect(writes()).toEqual([]);
  });

  test('link --wait: the entry is linked before anything is pushed, then what waited is pushed', async () => {
    // the linked entry is pushed as an update in place
    const run = await cli(['link', '--wait', '--json']);
    const doc = run.json<CliParts['link']>();
    expect(doc.proposal.applied).toBe(1);
    expect(doc.status.counts).toMatchObject({ synced: 3, failed: 1, pending: 0 });
    expect(run.code).toBe(1);
    expect(emu.state().pinpoints.filter((p) => p.name === 'Tour Eiffel')).toEqual([
      expect.objectContaining({ id: eiffel.id }),
    ]);
    expect(writes().filter((w) => w.method === 'POST').length).toBe(2);
    expect(
      writes()
        .filter((w) => w.method === 'PUT')
        .map((w) => w.path)
    ).toEqual([`/v3.0/pinpoints/${eiffel.id}`]);
  });

  jsOnly(
    'resync --wait: pushes from this process with no server running; exit 1 for the failed entry, which is named',
    async () => {
      const before = writes().length;
      const run = await cli(['resync', '--wait']);
      expect(run.code).toBe(1);
      expect(remotePinpoints()).toEqual(['Louvre', 'Orsay', 'Tour Eiffel']);
      // all three were pushed by the link above: nothing changed, no call
      expect(writes().length).toBe(before);
      expect(run.stdout).toMatch(/synced 3 · pending 0 · failed 1/);
      expect(run.stdout).toContain(ids.nowhere);
      // not a terminal: no bar redrawn in place
      expect(run.stderr).not.toContain('\r');
      // Strapi's info lines are not printed
      expect(run.stdout + run.stderr).not.toContain('Shutting down Strapi');
    }
  );

  jsOnly(
    'check: no drift, exit 0; an object deleted behind its back is drift, exit 1, a gate on other groups passes (with its bar on a terminal); repair brings it back',
    async () => {
      let run = await cli(['check', '--json']);
      expect(run.code).toBe(0);
      expect(run.json<CliParts['check']>().counts).toEqual({
        missing: 0,
        changed: 0,
        membership: 0,
        notOurs: 0,
      });

      const louvre = emu.state().pinpoints.find((p) => p.name === 'Louvre')!;
      const token = emu.issueToken().access_token;
      const res = await fetch(`${emu.baseUrl}/v3.0/pinpoints/${louvre.id}`, {
        method: 'DELETE',
        headers: { authorization: `Bearer ${token}` },
      });
      expect(res.status).toBeLessThan(300);
      run = await cli(['check', '--json']);
      expect(run.code).toBe(1);
      const doc = run.json<CliParts['check']>();
      expect(doc.counts.missing).toBe(1);
      expect(doc.report.missing[0]).toMatchObject({ documentId: ids.louvre, remoteId: louvre.id });
      // A gate on other groups only passes. On a terminal (script(1) is the pty; once is enough)
      // the walk draws a progress bar, redrawn in place, and clears it.
      emu.setFaults({ rules: [{ kind: 'latency', latencyMs: [300, 300], method: 'GET' }] });
      try {
        // a walk slow enough to be seen
        run = await runCli({
          appDir,
          emulator: emu,
          args: ['check', '--groups', 'changed,notOurs'],
          tty: true,
        });
      } finally {
        emu.clearFaults();
      }
      expect(run.code).toBe(0);
      expect(run.stdout).toContain('no drift in changed, notOurs');
      // "\r" + erase the line, then the bar; at the end the line erased before the result
      const clear = '\r\u001b[2K';
      expect(run.stdout).toMatch(/walking the remote account \(\w+\), objects \d+/);
      expect(run.stdout).toContain(`${clear}walking the remote account (`);
      const text = run.stdout.replace(/\r\n/g, '\n');
      const result = text.search(/no drift|drift:/);
      expect(result).toBeGreaterThan(0);
      expect(text.slice(0, result).replace(/\n$/, '').endsWith(clear)).toBe(true);

      run = await cli(['repair', '--groups', 'missing', '--wait', '--json']);
      expect(run.json<CliParts['repair']>().outcome.queued).toEqual({ missing: 1 });
      // the place without coordinates still fails
      expect(run.code).toBe(1);
      expect(remotePinpoints()).toEqual(['Louvre', 'Orsay', 'Tour Eiffel']);
      expect(emu.state().pinpoints.find((p) => p.name === 'Louvre')!.id).not.toBe(louvre.id);
    }
  );
});

describe('import: an account that already has content, into a new app', () => {
  let appDir: string;
  const ids: Record<string, number> = {};
  const cli = (args: string[]) => runCli({ appDir, emulator: emu, args });

  beforeAll(async () => {
    emu.reset();
    emu.clearRequests();
    appDir = await javaScriptApp();
    [ids.museum] = emu.seed('categories', [{ name: 'Museums' }]);
    [ids.louvre, ids.bad] = emu.seed('pinpoints', [
      { name: 'Louvre', latitude: 48.8606, longitude: 2.3376, category: ids.museum },
      { name: 'Nowhere', latitude: 48, longitude: 2 },
    ]);
    emu.tamper('pinpoints', ids.bad, { latitude: 123 });
  });

  test('import --dry-run: per resource the content type and what would fail, exit 1; import, then --wait, imports, exit 1 for the object that failed', async () => {
    const dry = await cli(['import', '--dry-run']);
    expect(dry.stdout).toContain('pinpoint: 2 → api::place.place (1 would fail)');
    expect(dry.stdout).toContain('category: 1 → api::icon.icon');
    expect(dry.stdout).toMatch(/pinpoint \d+ "Nowhere": .*latitude 123/);
    expect(dry.code).toBe(1);
    // the content type of a resource is the caller's to choose, among the mapped ones only
    const wrong = await cli(['import', '--dry-run', '--into', 'pinpoint=api::tour.tour']);
    expect(wrong.code).toBe(3);
    expect(wrong.stderr).toContain(
      'into.pinpoint: "api::tour.tour" has no active mapping of this resource; choose one of api::place.place'
    );

    // started and recorded, into the content type chosen; this process stops it where it is, and
    // --wait goes on from there (the entries read below are of the type chosen)
    const started = await cli(['import', '--into', 'pinpoint=api::place.place']);
    expect(started.stdout).toMatch(/^import \S+ started/);
    expect(started.code).toBe(0);

    const run = await cli(['import', '--wait', '--json']);
    const { job } = run.json<CliParts['import']>();
    expect(job).toMatchObject({ state: 'done', counts: { failed: 1 } });
    expect(job.issues).toEqual([
      expect.objectContaining({ remoteId: ids.bad, imported: false, reason: expect.any(String) }),
    ]);
    expect(run.code).toBe(1);
    // the import writes entries, not the remote
    expect(writes()).toEqual([]);

    // the entries, as Strapi reads them: drafts, linked to their objects
    const reading = await startChildApp({ appDir, emulator: emu });
    const found = await reading.run(async (strapi) => ({
      places: (await strapi.documents('api::place.place').findMany({ status: 'draft' })).map(
        (p) => p.title
      ),
      icons: await strapi.documents('api::icon.icon').count({}),
    }));
    await reading.stop();
    expect(found).toEqual({ places: ['Louvre'], icons: 1 });
  });
});

describe('bad usage and failures: one readable line, no stack', () => {
  // the JavaScript app of the first describe
  const cwd = () => dirs[0];

  // The other usage errors and help texts: tests/unit/cli-usage.test.ts, through the same main().
  test('an option node refuses: exit 2, its one line', async () => {
    const run = await runCli({ appDir: cwd(), emulator: emu, args: ['resync', '--now'] });
    expect(run.code).toBe(2);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(run.stderr).toMatch(/^location-content: resync: Unknown option '--now'/);
    expect(run.stdout).toBe('');
  });

  test('--help prints the usage, exit 0, without loading the app', async () => {
    const run = await runCli({ appDir: '/', args: ['--help'] });
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^Usage: location-content <command>/);
  });

  test("a saved secret this app's keys cannot read: status says so, --wait names it as the cause", async () => {
    const appDir = await javaScriptApp();
    // The secret in the plugin's store, not in the config: sealed with the playground's keys.
    const stored = { ...emu, clientSecret: '' };
    const saving = await startChildApp({ appDir, emulator: stored });
    await saving.run(
      async (strapi, secret: string) =>
        strapi
          .plugin('location-content')
          .service('settings')
          .credentials.save({ clientSecret: secret }),
      emu.clientSecret
    );
    await saving.stop();
    // A CI job whose keys are not the servers'.
    const env = { APP_KEYS: 'ciKeyA,ciKeyB', ENCRYPTION_KEY: 'ci-encryption-key' };
    const status = await runCli({ appDir, emulator: stored, env, args: ['status'] });
    expect(status.stdout).toContain(
      "credentials: The stored client secret cannot be read with this app's keys"
    );
    const wait = await runCli({ appDir, emulator: stored, env, args: ['resync', '--wait'] });
    expect(wait.code).toBe(3);
    expect(wait.stderr).toMatch(
      /^location-content: nothing is pushed from this app \(The stored client secret cannot be read with this app's keys .*\): --wait would never end$/m
    );
    expect(wait.stderr).not.toContain('not configured');
  });

  test('outside a Strapi app: exit 3 and one line', async () => {
    const run = await runCli({ appDir: '/', args: ['status'] });
    expect(run.code).toBe(3);
    expect(run.stderr.trim()).toBe(
      "location-content: / is not a Strapi app (no package.json depending on @strapi/strapi): run location-content in your app's folder"
    );
  });

  test('a remote that does not answer: exit 3, one line, and the --json document says why', async () => {
    const run = await runCli({
      appDir: cwd(),
      emulator: { ...emu, baseUrl: 'http://127.0.0.1:9' },
      args: ['check', '--json'],
      env: {
        LOCATION_CONTENT_CONFIG_PATCH: JSON.stringify({
          config: { retry: { baseMs: 10, maxMs: 20, maxAttempts: 2 } },
        }),
      },
    });
    expect(run.code).toBe(3);
    expect(run.stderr).toMatch(/^location-content: the remote account could not be walked: /m);
    expect(run.stderr).not.toMatch(/^\s+at /m);
    expect(run.json()).toMatchObject({ command: 'check', ok: false, exitCode: 3 });
  });

  test('stopped by a signal mid-command (a CI timeout): exit 3, not 0, and the --json document says so', async () => {
    // A remote that takes the connection and never answers: the command is under way then.
    // One signal only: a second one ends the command at once, without its document (by design),
    // and the client may open another connection (the token, a retry) before the first is handled.
    let signalled = false;
    const silent = net.createServer(() => {
      if (signalled || !target) return;
      signalled = true;
      target.kill('SIGTERM');
    });
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    let target: ChildProcess | undefined;
    try {
      const run = await runCli({
        appDir: cwd(),
        emulator: {
          ...emu,
          baseUrl: `http://127.0.0.1:${(silent.address() as net.AddressInfo).port}`,
        },
        args: ['check', '--json'],
        // The stop waits for the request under way: its timeout, not the default 30 s.
        env: {
          LOCATION_CONTENT_CONFIG_PATCH: JSON.stringify({ config: { requestTimeoutMs: 2000 } }),
        },
        onSpawn: (child) => (target = child),
      });
      expect(run.code).toBe(3);
      expect(run.stderr).toMatch(/^location-content: interrupted by SIGTERM$/m);
      expect(run.json()).toMatchObject({
        command: 'check',
        ok: false,
        exitCode: 3,
        error: 'interrupted by SIGTERM',
      });
    } finally {
      silent.close();
    }
  });

  test('the packed package ships the command', async () => {
    const pkg = require('../../package.json');
    expect(pkg.bin['location-content']).toBe('./dist/cli/index.js');
    expect(pkg.files).toContain('dist');
    const main = await fs.readFile(
      path.join(__dirname, '..', '..', 'dist', 'cli', 'index.js'),
      'utf8'
    );
    expect(main.startsWith('#!/usr/bin/env node\n')).toBe(true);
  });
});
