import fs from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { httpFetch } from '../../server/src/remote/http-fetch';
import { createIoThread, NotSentError } from '../../server/src/remote/io-thread';
import type { FetchLike } from '../../server/src/remote/transport';

let server: http.Server;
/** answers of /hold…, sent when a test calls them */
const held: Array<() => void> = [];
const atOnce = { max: 0 };
const releaseHeld = () => held.splice(0).forEach((end) => end());
let base: string;
const seen: Array<{
  method?: string;
  url?: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}> = [];

beforeAll(async () => {
  server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      seen.push({ method: req.method, url: req.url, headers: req.headers, body });
      if (req.url === '/redirect') {
        res.writeHead(302, { Location: '/elsewhere' });
        return res.end();
      }
      if (req.url === '/slow') {
        const timer = setTimeout(() => res.end('late'), 2_000);
        return res.on('close', () => clearTimeout(timer));
      }
      if (req.url === '/reset') return req.socket.destroy();
      if (req.url?.startsWith('/hold')) {
        held.push(() => res.end('released'));
        atOnce.max = Math.max(atOnce.max, held.length);
        return;
      }
      if (req.url === '/cut') {
        res.writeHead(200, { 'Content-Length': '100' });
        res.write('partial');
        setTimeout(() => req.socket.destroy(), 20);
        return;
      }
      res.writeHead(201, {
        'Content-Type': 'application/json',
        'Retry-After': '7',
        'Set-Cookie': ['a=1', 'b=2'],
      });
      res.end(JSON.stringify({ echo: body, unicode: 'Château – 東京' }));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

const agent = new http.Agent({ keepAlive: true });
afterAll(() => agent.destroy());

// The thread behind the sync's calls and the plain fetch behind the settings page's test: the same contract.
const io = createIoThread({ concurrency: 2 });
afterAll(() => io.close());

describe.each<[string, FetchLike]>([
  ['httpFetch', httpFetch],
  ['the I/O thread', io.fetch],
])('%s', (_name, httpFetch) => {
  it('sends method, headers and body, and answers status, headers and the whole text', async () => {
    const res = await httpFetch(`${base}/v3.0/pinpoints?x=1`, {
      method: 'POST',
      headers: { Authorization: 'Bearer t', 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'Café' }),
      agent: () => agent,
    });
    expect(res.status).toBe(201);
    expect(res.statusText).toBe('Created');
    expect(res.headers.get('retry-after')).toBe('7');
    expect(res.headers.get('Content-Type')).toBe('application/json');
    expect(res.headers.get('set-cookie')).toBe('a=1, b=2');
    expect(res.headers.get('x-missing')).toBeNull();
    expect(JSON.parse(await res.text())).toEqual({
      echo: '{"name":"Café"}',
      unicode: 'Château – 東京',
    });
    const req = seen.at(-1)!;
    expect(req).toMatchObject({
      method: 'POST',
      url: '/v3.0/pinpoints?x=1',
      body: '{"name":"Café"}',
    });
    expect(req.headers['content-length']).toBe(String(Buffer.byteLength('{"name":"Café"}')));
    expect(req.headers.authorization).toBe('Bearer t');
  });

  it('sends the body of a DELETE (a list membership removal has one)', async () => {
    const body = JSON.stringify({ pinpoints: [1, 2] });
    const res = await httpFetch(`${base}/v3.0/lists/7/pinpoints`, {
      method: 'DELETE',
      headers: { 'Content-Type': 'application/json' },
      body,
    });
    expect(JSON.parse(await res.text()).echo).toBe(body);
    expect(seen.at(-1)).toMatchObject({ method: 'DELETE', body });
  });

  it('does not follow redirects (they would carry the credentials elsewhere)', async () => {
    const res = await httpFetch(`${base}/redirect`, {
      method: 'GET',
      headers: { Authorization: 'Bearer t' },
      redirect: 'manual',
    });
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('/elsewhere');
    expect(seen.some((s) => s.url === '/elsewhere')).toBe(false);
  });

  it('stops at once when its signal aborts, with an AbortError', async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    await expect(
      httpFetch(`${base}/slow`, { method: 'GET', headers: {}, signal: controller.signal })
    ).rejects.toMatchObject({ name: 'AbortError' });
    // Rejected, so before /slow's answer (2 s) would have resolved it: an order, not a speed.
    const aborted = AbortSignal.abort();
    await expect(
      httpFetch(`${base}/`, { method: 'GET', headers: {}, signal: aborted })
    ).rejects.toThrow(/abort/i);
  });

  it('fails with the network error code when the connection is reset or the body is cut off', async () => {
    await expect(httpFetch(`${base}/reset`, { method: 'GET', headers: {} })).rejects.toMatchObject({
      code: 'ECONNRESET',
    });
    await expect(httpFetch(`${base}/cut`, { method: 'GET', headers: {} })).rejects.toMatchObject({
      code: 'ECONNRESET',
    });
    await expect(
      httpFetch('http://127.0.0.1:1/', { method: 'GET', headers: {} })
    ).rejects.toMatchObject({ code: 'ECONNREFUSED' });
  });
});

describe('the I/O thread', () => {
  const held200 = (path: string) => io.fetch(`${base}${path}`, { method: 'GET', headers: {} });
  const untilHeld = async (n: number) => {
    for (let i = 0; i < 200 && held.length < n; i++) await new Promise((r) => setTimeout(r, 10));
    expect(held.length).toBe(n);
  };

  it('keeps its concurrency on the wire and starts a waiting call as soon as an answer arrives', async () => {
    atOnce.max = 0;
    const calls = [1, 2, 3, 4, 5].map((i) => held200(`/hold/${i}`));
    await untilHeld(2);
    expect(io.stats().inThread).toBe(5);
    // Answer one: the thread sends the next one without the main thread's help.
    held.shift()!();
    await untilHeld(2);
    while (held.length) {
      releaseHeld();
      await new Promise((r) => setTimeout(r, 20));
    }
    const texts = await Promise.all(calls.map(async (c) => (await c).text()));
    expect(texts).toEqual(Array(5).fill('released'));
    expect(atOnce.max).toBe(2);
    expect(io.stats().inThread).toBe(0);
  });

  it('gives back a call cancelled while it waits, unsent, and aborts one on the wire', async () => {
    const onWire = [held200('/hold/a'), held200('/hold/b')];
    await untilHeld(2);
    const controller = new AbortController();
    const waiting = io.fetch(`${base}/hold/never`, {
      method: 'GET',
      headers: {},
      signal: controller.signal,
    });
    controller.abort();
    await expect(waiting).rejects.toBeInstanceOf(NotSentError);
    releaseHeld();
    await Promise.all(onWire);
    expect(seen.some((s) => s.url === '/hold/never')).toBe(false);

    const inFlight = new AbortController();
    const aborted = io.fetch(`${base}/slow`, {
      method: 'GET',
      headers: {},
      signal: inFlight.signal,
    });
    setTimeout(() => inFlight.abort(), 50);
    await expect(aborted).rejects.toMatchObject({ name: 'AbortError' });
    await expect(
      io.fetch(`${base}/`, { method: 'GET', headers: {}, signal: AbortSignal.abort() })
    ).rejects.toBeInstanceOf(NotSentError);
  });

  it('holds every call not yet sent until a pause ends', async () => {
    await held200('/warm');
    const until = Date.now() + 300;
    io.pause(until);
    const res = await held200('/after-pause');
    expect(Date.now()).toBeGreaterThanOrEqual(until);
    expect(res.status).toBe(201);
  });

  it('rejects the calls it holds when closed, and starts again at the next call', async () => {
    const other = createIoThread({ concurrency: 1 });
    const pending = other.fetch(`${base}/slow`, { method: 'GET', headers: {} });
    await new Promise((r) => setTimeout(r, 50));
    await other.close();
    await expect(pending).rejects.toThrow(/I\/O thread stopped: closed/);
    const again = await other.fetch(`${base}/`, { method: 'GET', headers: {} });
    expect(again.status).toBe(201);
    await other.close();
  });
});

test('the thread starts from the source a keepNames bundler makes of it (tsx, esbuild)', async () => {
  // esbuild comes with tsx: it wraps inner functions in a `__name` helper the thread does not have.
  const esbuild = await import('esbuild');
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'lc-io-thread-'));
  const outfile = path.join(dir, 'io-thread.js');
  await esbuild.build({
    entryPoints: [path.join(__dirname, '../../server/src/remote/io-thread.ts')],
    bundle: true,
    platform: 'node',
    format: 'cjs',
    keepNames: true,
    outfile,
  });
  expect(await fs.readFile(outfile, 'utf8')).toContain('__name(');
  const bundled: typeof import('../../server/src/remote/io-thread') = require(outfile);
  const thread = bundled.createIoThread({ concurrency: 1 });
  try {
    const res = await thread.fetch(`${base}/`, { method: 'GET', headers: {} });
    expect(res.status).toBe(201);
  } finally {
    await thread.close();
    await fs.rm(dir, { recursive: true, force: true });
  }
});
