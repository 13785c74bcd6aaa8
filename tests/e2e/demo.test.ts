/**
 * The README's first command, as a user runs it: `npm run demo` builds what it needs, starts the
 * emulator and the playground, pushes the sample content, prints where to look and how to log in,
 * and whatever ends it ends the emulator too. On ports and a database file of its own, so that it
 * runs beside the rest of the suite; the sample images it uploads into the playground are removed.
 *
 *   npx strapi-plugin build && npx jest tests/e2e/demo.test.ts --selectProjects e2e
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { promises as fs } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '../helpers/local-server';
import { ROOT } from '../helpers/strapi';

jest.setTimeout(300_000);

const UPLOADS = path.join(ROOT, 'playground', 'public', 'uploads');

interface Demo {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

function startDemo(env: Record<string, string>): Demo {
  // As from a shell: jest's NODE_ENV=test is not the user's.
  const { NODE_ENV: _jest, ...shell } = process.env;
  const child = spawn(process.execPath, ['scripts/demo.js'], {
    cwd: ROOT,
    env: { ...shell, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    // A group of its own: what the demo leaves behind when a check fails is killed in afterAll.
    detached: true,
  });
  groups.push(child.pid!);
  let out = '';
  child.stdout!.on('data', (c) => (out += c));
  child.stderr!.on('data', (c) => (out += c));
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  return { child, output: () => out, exited };
}

/** Resolves once `text` is in the demo's output; rejects with the output if it exits first. */
async function waitFor(demo: Demo, text: string) {
  for (let ended = false; !demo.output().includes(text);) {
    if (ended) throw new Error(`the demo exited before "${text}":\n${demo.output().slice(-4000)}`);
    ended = await Promise.race([
      demo.exited.then(() => true),
      new Promise<boolean>((r) => setTimeout(() => r(false), 250)),
    ]);
  }
}

const refused = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', (err: NodeJS.ErrnoException) => resolve(err.code === 'ECONNREFUSED'));
  });

const groups: number[] = [];
let tmp: string;
let uploadsBefore: Set<string>;

beforeAll(async () => {
  tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'lc-demo-'));
  await fs.mkdir(UPLOADS, { recursive: true });
  uploadsBefore = new Set(await fs.readdir(UPLOADS));
});

afterAll(async () => {
  for (const pgid of groups)
    try {
      process.kill(-pgid, 'SIGKILL');
    } catch {
      // gone already, as it should be
    }
  for (const name of await fs.readdir(UPLOADS))
    if (!uploadsBefore.has(name)) await fs.rm(path.join(UPLOADS, name), { force: true });
  await fs.rm(tmp, { recursive: true, force: true });
});

it('a taken port: one line naming it and what to set, before any building', async () => {
  const taken = net.createServer();
  await new Promise<void>((r) => taken.listen(0, '127.0.0.1', r));
  const port = (taken.address() as net.AddressInfo).port;
  try {
    const demo = startDemo({ PORT: String(port), EMULATOR_PORT: String(await freePort()) });
    expect(await demo.exited).toBe(1);
    expect(demo.output().trim()).toBe(
      `demo: 127.0.0.1:${port} is taken (a demo still running?): stop what listens there, or set PORT`
    );
  } finally {
    taken.close();
  }
});

it('pushes the sample content, logs the admin in, and a SIGTERM ends the emulator with it', async () => {
  const port = await freePort();
  const emulatorPort = await freePort();
  const demo = startDemo({
    PORT: String(port),
    EMULATOR_PORT: String(emulatorPort),
    DATABASE_FILENAME: path.join(tmp, 'demo.db'),
  });
  try {
    await waitFor(demo, 'Ctrl+C stops everything');
    const out = demo.output();
    expect(out).toContain(`Strapi admin      http://127.0.0.1:${port}/admin`);
    expect(out).toContain(`Emulator API      http://127.0.0.1:${emulatorPort}/v3.0`);
    expect(out).toContain('Sample content    created now');
    expect(out).toContain('On the map        6 pinpoints, 3 events, 3 categories, 2 lists');
    expect(out).toMatch(/Sync status {7}synced 14, pending 0, failed 1,/);
    // The admin user exists before Strapi's banner, which would otherwise ask for one.
    expect(out).not.toContain('Create your first administrator');

    const login = await fetch(`http://127.0.0.1:${port}/admin/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'admin@example.com', password: 'Demo-Passw0rd' }),
    });
    expect(login.status).toBe(200);
    expect((await login.json()).data.token).toEqual(expect.any(String));
    const panel = await fetch(`http://127.0.0.1:${port}/admin`);
    expect(panel.status).toBe(200);
    expect(await panel.text()).toContain('<div id="strapi">');
    const remote = await fetch(`http://127.0.0.1:${emulatorPort}/__emulator/state`);
    expect(remote.status).toBe(200);
  } finally {
    demo.child.kill('SIGTERM');
    await demo.exited;
  }
  // Strapi's own SIGTERM handler exits the process: the emulator went with it all the same.
  for (let i = 0; i < 40 && !(await refused(emulatorPort)); i++)
    await new Promise((r) => setTimeout(r, 250));
  expect(await refused(emulatorPort)).toBe(true);
  expect(await refused(port)).toBe(true);
});
