import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { httpFetch } from '../../server/src/remote/http-fetch';

let server: http.Server;
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

describe('httpFetch', () => {
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
    const t0 = Date.now();
    setTimeout(() => controller.abort(), 50);
    await expect(
      httpFetch(`${base}/slow`, { method: 'GET', headers: {}, signal: controller.signal })
    ).rejects.toMatchObject({ name: 'AbortError' });
    expect(Date.now() - t0).toBeLessThan(1_000);
    const aborted = AbortSignal.abort();
    await expect(
      httpFetch(`${base}/`, { method: 'GET', headers: {}, signal: aborted })
    ).rejects.toMatchObject({ name: 'AbortError' });
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
