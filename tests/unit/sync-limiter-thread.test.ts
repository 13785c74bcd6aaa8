import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createIoThread } from '../../server/src/remote/io-thread';
import { createLimiter, isRateLimitWait } from '../../server/src/sync/limiter';

/** The sync's limiter handing its calls on to the I/O thread, against a real local server. */
let server: http.Server;
let base: string;
const arrivals: Array<{ url: string; at: number }> = [];
let refuseNext = 0;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    arrivals.push({ url: req.url ?? '', at: Date.now() });
    if (refuseNext > 0) {
      refuseNext -= 1;
      res.writeHead(429, { 'Retry-After': '0.3' });
      return res.end();
    }
    setTimeout(() => res.end('ok'), req.url?.startsWith('/slow') ? 200 : 5);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

const setup = () => {
  const io = createIoThread({ concurrency: 1 });
  const limiter = createLimiter({
    requestsPerSecond: 1000,
    concurrency: 1,
    handOff: io,
  });
  const fetch = limiter.wrap(io.fetch);
  const get = (path: string, signal?: AbortSignal) =>
    fetch(`${base}${path}`, { method: 'GET', headers: {}, signal });
  return {
    get,
    async close() {
      limiter.stop();
      await io.close();
    },
  };
};

test('a call whose time runs out while it waits in the thread was not sent: a wait, not a failure', async () => {
  const { get, close } = setup();
  arrivals.length = 0;
  const first = get('/slow/1');
  const controller = new AbortController();
  // Handed on (backlog 1) but behind /slow/1 in the thread's only slot.
  const second = get('/never', controller.signal);
  setTimeout(() => controller.abort(), 50);
  const err = await second.catch((e: unknown) => e);
  expect(isRateLimitWait(err)).toBe(true);
  expect((await first).status).toBe(200);
  expect(arrivals.map((a) => a.url)).toEqual(['/slow/1']);
  await close();
});

test('a 429 pauses the calls already handed on to the thread, then the refused call is sent again', async () => {
  const { get, close } = setup();
  arrivals.length = 0;
  refuseNext = 1;
  const started = Date.now();
  const answers = await Promise.all([get('/a'), get('/b'), get('/c')]);
  expect(answers.map((a) => a.status)).toEqual([200, 200, 200]);
  const [refused, ...after] = arrivals;
  expect(refused.url).toBe('/a');
  // Nothing reached the server during the 300 ms the remote asked for.
  for (const a of after) expect(a.at - started).toBeGreaterThanOrEqual(290);
  expect(after.map((a) => a.url).sort()).toEqual(['/a', '/b', '/c']);
  await close();
});
