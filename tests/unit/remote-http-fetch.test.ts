import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { download, httpFetch } from '../../server/src/remote/transport';

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
      if (req.url === '/file') return res.end(Buffer.from([1, 2, 3]));
      if (req.url === '/gone') {
        res.writeHead(404);
        return res.end('no such file');
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

// The plugin's one HTTP client: every remote call (the sync's through the limiter, the settings
// page's test directly) and every media download.
describe('httpFetch', () => {
  it('sends method, headers and body, and answers status, headers and the whole text', async () => {
    const res = await httpFetch(`${base}/v3.0/pinpoints?x=1`, {
      method: 'POST',
      headers: { Authorization: 'Bearer t', 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'Café' }),
    });
    expect(res.status).toBe(201);
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

describe('download (media files stored elsewhere)', () => {
  it('answers the bytes, following a redirect (no credentials travel with it)', async () => {
    expect(await download(`${base}/file`, { timeoutMs: 1_000 })).toEqual({
      status: 200,
      bytes: Buffer.from([1, 2, 3]),
    });
    const redirected = await download(`${base}/redirect`, { timeoutMs: 1_000 });
    expect(seen.at(-1)?.url).toBe('/elsewhere');
    expect(redirected.status).toBe(201);
  });

  it('answers the status alone when it is not 2xx, and times out', async () => {
    expect(await download(`${base}/gone`, { timeoutMs: 1_000 })).toEqual({ status: 404 });
    await expect(download(`${base}/slow`, { timeoutMs: 50 })).rejects.toMatchObject({
      name: 'TimeoutError',
    });
  });
});
