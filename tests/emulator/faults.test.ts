import { request as httpRequest } from 'node:http';
import { startEmulator, type EmulatorHandle } from '../../emulator/src';
import { api, call, getToken, place, tokenRequest, type Api } from './helpers';

let emu: EmulatorHandle;
let a: Api;

beforeAll(async () => {
  emu = await startEmulator({ strict: true });
  a = await api(emu);
  emu.reset(); // start every test with an empty log (the token stays valid)
});
afterEach(() => emu.reset());
afterAll(() => emu.stop());

const until = async (check: () => boolean) => {
  while (!check()) await new Promise((r) => setTimeout(r, 5));
};

/** fetch() rejects on a reset connection: resolve to the error's code instead. */
async function failure(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (err) {
    const cause = (err as { cause?: { code?: string } }).cause;
    return cause?.code ?? (err as Error).message;
  }
  throw new Error('expected the request to fail');
}

describe('status faults', () => {
  it.each([500, 502, 503])(
    'a scripted %i answers instead of the handler and stores nothing',
    async (status) => {
      emu.setFaults({ script: [{ kind: 'status', status }] });
      const r = await a.post('/v3.0/pinpoints', place('x'));
      expect(r.status).toBe(status);
      expect(r.headers.get('content-type')).toBe('text/html');
      expect(r.text).toContain(String(status));
      expect(emu.state().pinpoints).toEqual([]);
      // consumed: the next request goes through
      expect((await a.post('/v3.0/pinpoints', place('y'))).status).toBe(201);
      expect(emu.requests().map((e) => [e.status, e.fault])).toEqual([
        [status, 'status'],
        [201, null],
      ]);
    }
  );

  it('a script is consumed in order, one entry per matching request; filters by method and path prefix', async () => {
    emu.setFaults({
      script: [
        { kind: 'status', status: 503, method: 'POST', pathPrefix: '/v3.0/pinpoints' },
        { kind: 'pass', method: 'POST', pathPrefix: '/v3.0/pinpoints' },
        { kind: 'status', status: 502, method: 'POST', pathPrefix: '/v3.0/pinpoints' },
      ],
    });
    expect((await a.get('/v3.0/pinpoints')).status).toBe(200); // GET: not matched, nothing consumed
    expect((await a.post('/v3.0/lists', { name: 'l' })).status).toBe(201); // other path
    expect(emu.faults().script).toHaveLength(3);
    const statuses = [];
    for (let i = 0; i < 4; i++)
      statuses.push((await a.post('/v3.0/pinpoints', place(`p${i}`))).status);
    expect(statuses).toEqual([503, 201, 502, 201]);
    expect(emu.faults().script).toEqual([]);
    expect(emu.state().pinpoints).toHaveLength(2);
  });

  it('a custom JSON body and Retry-After, and 429 as a scripted status', async () => {
    emu.setFaults({
      script: [
        { kind: 'status', status: 503, body: { detail: 'maintenance' }, retryAfter: 30 },
        { kind: 'status', status: 429, retryAfter: 7 },
      ],
    });
    const r1 = await a.get('/v3.0/lists');
    expect([r1.status, r1.body, r1.headers.get('retry-after')]).toEqual([
      503,
      { detail: 'maintenance' },
      '30',
    ]);
    const r2 = await a.get('/v3.0/lists');
    expect([r2.status, r2.body, r2.headers.get('retry-after')]).toEqual([
      429,
      { detail: 'Request was throttled. Expected available in 7 seconds.' },
      '7',
    ]);
  });

  it('probability rules: 1 always, 0 never, 0.5 about half (seeded, repeatable)', async () => {
    emu.setFaults({
      rules: [{ kind: 'status', status: 500, probability: 1, pathPrefix: '/v3.0/events' }],
    });
    expect((await a.get('/v3.0/events')).status).toBe(500);
    expect((await a.get('/v3.0/events')).status).toBe(500);
    expect((await a.get('/v3.0/lists')).status).toBe(200);
    emu.setFaults({ rules: [{ kind: 'status', status: 500, probability: 0 }] });
    expect((await a.get('/v3.0/events')).status).toBe(200);

    const run = async (): Promise<number[]> => {
      emu.setFaults({ seed: 42, rules: [{ kind: 'status', status: 503, probability: 0.5 }] });
      const out: number[] = [];
      for (let i = 0; i < 100; i++) out.push((await a.get('/v3.0/lists')).status);
      return out;
    };
    const first = await run();
    const failed = first.filter((s) => s === 503).length;
    expect(failed).toBeGreaterThan(25);
    expect(failed).toBeLessThan(75);
    expect(await run()).toEqual(first);
  });

  it('faults can be set at start', async () => {
    const other = await startEmulator({
      faults: { script: [{ kind: 'status', status: 502, pathPrefix: '/v3.0/oauth2' }] },
    });
    try {
      expect((await tokenRequest(other)).status).toBe(502);
      expect((await tokenRequest(other)).status).toBe(200);
      other.reset(); // back to the start faults
      expect((await tokenRequest(other)).status).toBe(502);
    } finally {
      await other.stop();
    }
  });
});

describe('latency', () => {
  it('fixed and range', async () => {
    emu.setFaults({
      script: [
        { kind: 'latency', latencyMs: 150 },
        { kind: 'latency', latencyMs: [50, 80] },
      ],
    });
    let t = performance.now();
    expect((await a.get('/v3.0/lists')).status).toBe(200);
    expect(performance.now() - t).toBeGreaterThanOrEqual(140);
    t = performance.now();
    await a.get('/v3.0/lists');
    const took = performance.now() - t;
    expect(took).toBeGreaterThanOrEqual(45);
    expect(emu.requests().map((e) => e.fault)).toEqual(['latency', 'latency']);
    expect(emu.requests()[0]!.durationMs).toBeGreaterThanOrEqual(140);
  });

  it('a slow 503 (latency on a status fault) and a latency rule on one path', async () => {
    emu.setFaults({
      script: [{ kind: 'status', status: 503, latencyMs: 100 }],
      rules: [{ kind: 'latency', latencyMs: 60, pathPrefix: '/v3.0/categories' }],
    });
    const t = performance.now();
    expect((await a.get('/v3.0/lists')).status).toBe(503);
    expect(performance.now() - t).toBeGreaterThanOrEqual(90);
    const t2 = performance.now();
    await a.get('/v3.0/categories');
    expect(performance.now() - t2).toBeGreaterThanOrEqual(50);
  });

  it('stop() does not wait for a sleeping request', async () => {
    const other = await startEmulator({
      faults: { rules: [{ kind: 'latency', latencyMs: 60_000 }] },
    });
    const pending = fetch(`${other.baseUrl}/v3.0/lists`).catch(() => 'failed');
    await new Promise((r) => setTimeout(r, 50));
    const t = performance.now();
    await other.stop();
    // Not the 60 s the request sleeps: the bound tells waiting from not waiting, whatever the load.
    expect(performance.now() - t).toBeLessThan(30_000);
    expect(await pending).toBe('failed');
  });
});

describe('hold', () => {
  it('a held request waits unanswered until release(), then is handled; the others pass', async () => {
    emu.setFaults({ script: [{ kind: 'hold', method: 'POST' }] });
    let answered = false;
    const held = a.post('/v3.0/pinpoints', place('held')).then((r) => {
      answered = true;
      return r;
    });
    await until(() => emu.held() === 1);
    expect((await a.get('/v3.0/lists')).status).toBe(200);
    expect(answered).toBe(false);
    expect(emu.state().pinpoints).toEqual([]);
    expect(emu.release()).toBe(1);
    expect((await held).status).toBe(201);
    expect(emu.state().pinpoints.map((p) => p.name)).toEqual(['held']);
    expect(emu.requests().map((e) => [e.method, e.fault])).toEqual([
      ['GET', null],
      ['POST', 'hold'],
    ]);
    expect(emu.release()).toBe(0);
  });

  it('stop() lets go of a held request', async () => {
    const other = await startEmulator({ faults: { rules: [{ kind: 'hold' }] } });
    const pending = fetch(`${other.baseUrl}/v3.0/lists`).catch(() => 'failed');
    await until(() => other.held() === 1);
    await other.stop();
    expect(await pending).toBe('failed');
  });
});

describe('connection resets', () => {
  it('reset-before: the socket is destroyed, nothing is stored', async () => {
    emu.setFaults({ script: [{ kind: 'reset-before', method: 'POST' }] });
    const code = await failure(a.post('/v3.0/pinpoints', place('lost')));
    expect(code).toMatch(/ECONNRESET|UND_ERR_SOCKET|other side closed/);
    expect(emu.state().pinpoints).toEqual([]);
    const [entry] = emu.requests();
    expect(entry).toMatchObject({ method: 'POST', status: null, fault: 'reset-before' });
    expect(entry!.appliedStatus).toBeUndefined();
    // keep-alive clients recover on a new socket
    expect((await a.post('/v3.0/pinpoints', place('ok'))).status).toBe(201);
    expect(emu.stats().resets).toBe(1);
  });

  it('reset-after: the object IS stored but the client never gets the answer', async () => {
    emu.setFaults({
      script: [{ kind: 'reset-after', method: 'POST', pathPrefix: '/v3.0/pinpoints' }],
    });
    await failure(a.post('/v3.0/pinpoints', place('ghost')));
    expect(emu.state().pinpoints.map((p) => p.name)).toEqual(['ghost']);
    expect(emu.requests()[0]).toMatchObject({
      status: null,
      appliedStatus: 201,
      fault: 'reset-after',
    });
    // a DELETE whose answer is lost is applied too
    const pp = emu.state().pinpoints[0]!;
    emu.scriptFaults([{ kind: 'reset-after', method: 'DELETE' }]);
    await failure(a.del(`/v3.0/pinpoints/${pp.id}`));
    expect(emu.state().pinpoints).toEqual([]);
  });

  it('garble-after: the object IS stored and the 2xx answer cannot be read', async () => {
    emu.setFaults({
      script: [
        { kind: 'garble-after', method: 'POST', pathPrefix: '/v3.0/pinpoints' },
        { kind: 'garble-after', method: 'POST', body: '<html><body>OK</body></html>' },
        { kind: 'garble-after', method: 'POST', body: {} },
      ],
    });
    const post = (name: string) =>
      fetch(`${emu.baseUrl}/v3.0/pinpoints`, {
        method: 'POST',
        headers: { authorization: `Bearer ${a.token}`, 'content-type': 'application/json' },
        body: JSON.stringify(place(name)),
      });
    const cut = await post('cut');
    expect(cut.status).toBe(201);
    expect(cut.headers.get('content-type')).toBe('application/json');
    const text = await cut.text();
    expect(text.startsWith('{"id":')).toBe(true);
    expect(() => JSON.parse(text)).toThrow();
    const html = await post('html');
    expect([html.status, await html.text()]).toEqual([201, '<html><body>OK</body></html>']);
    const empty = await post('empty');
    expect([empty.status, await empty.json()]).toEqual([201, {}]);
    expect(emu.state().pinpoints.map((p) => p.name)).toEqual(['cut', 'html', 'empty']);
    expect(emu.requests().map((r) => [r.status, r.fault])).toEqual([
      [201, 'garble-after'],
      [201, 'garble-after'],
      [201, 'garble-after'],
    ]);
  });

  it('a reset is a real TCP reset for a plain node:http client', async () => {
    emu.setFaults({ script: [{ kind: 'reset-before' }] });
    const code = await new Promise<string>((resolve) => {
      const req = httpRequest(
        `${emu.baseUrl}/v3.0/lists`,
        { headers: { authorization: `Bearer ${a.token}` } },
        () => resolve('answered')
      );
      req.on('error', (err: NodeJS.ErrnoException) => resolve(err.code ?? err.message));
      req.end();
    });
    expect(code).toBe('ECONNRESET');
  });
});

describe('token revocation as a fault', () => {
  it("'revoke-tokens' revokes every token just before a matching request", async () => {
    emu.setFaults({ script: [{ kind: 'pass' }, { kind: 'revoke-tokens' }] });
    expect((await a.get('/v3.0/lists')).status).toBe(200);
    const r = await a.get('/v3.0/lists');
    expect(r.status).toBe(401);
    expect(r.body).toEqual({ detail: 'Token revoked.' });
    a = await api(emu); // a fresh token works
    expect((await a.get('/v3.0/lists')).status).toBe(200);
  });
});

describe('fault configuration', () => {
  it('bad fault specs are refused clearly (TypeError in-process, 400 over HTTP)', async () => {
    expect(() => emu.setFaults({ script: [{ kind: 'explode' as never }] })).toThrow(
      /kind must be one of/
    );
    expect(() => emu.setFaults({ rules: [{ kind: 'status', probability: 2 }] })).toThrow(
      /probability/
    );
    expect(() => emu.setFaults({ rules: [{ kind: 'latency' }] })).toThrow(/latencyMs/);
    expect(() => emu.setFaults({ rules: [{ kind: 'status', status: 200 }] })).toThrow(/status/);
    const r = await call(emu, 'PUT', '/__emulator/faults', {
      json: { script: [{ kind: 'nope' }] },
    });
    expect(r.status).toBe(400);
    expect(r.body.detail).toMatch(/kind must be one of/);
  });

  it('the control API sets, appends, reads and clears faults', async () => {
    const put = await call(emu, 'PUT', '/__emulator/faults', {
      json: {
        rules: [{ kind: 'latency', latencyMs: 1, method: 'get' }],
        script: [{ kind: 'status', status: 500 }],
      },
    });
    expect(put.status).toBe(200);
    expect(put.body.rules).toEqual([{ kind: 'latency', latencyMs: 1, method: 'GET' }]);
    const appended = await call(emu, 'POST', '/__emulator/faults/script', {
      json: [{ kind: 'reset-before' }],
    });
    expect(appended.body.script.map((f: { kind: string }) => f.kind)).toEqual([
      'status',
      'reset-before',
    ]);
    expect((await call(emu, 'GET', '/__emulator/faults')).body).toEqual(emu.faults());
    expect((await a.get('/v3.0/lists')).status).toBe(500);
    expect((await call(emu, 'DELETE', '/__emulator/faults')).status).toBe(204);
    expect(emu.faults()).toEqual({ rules: [], script: [] });
    expect((await a.get('/v3.0/lists')).status).toBe(200);
  });

  it('control routes are never faulted nor logged', async () => {
    emu.setFaults({ rules: [{ kind: 'status', status: 500 }] });
    expect((await call(emu, 'GET', '/__emulator/state')).status).toBe(200);
    expect(emu.requests()).toEqual([]);
  });
});

describe('rate limit', () => {
  it('token bucket per client: burst, then 429 with Retry-After and the DRF message; refills with time', async () => {
    emu.configure({ rateLimit: { rate: 0.5, burst: 3 } });
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await a.get('/v3.0/lists')).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
    const r = await a.get('/v3.0/lists');
    expect(r.status).toBe(429);
    const retry = r.headers.get('retry-after')!;
    expect(retry).toMatch(/^\d+$/);
    expect(Number(retry)).toBeGreaterThanOrEqual(1);
    expect(Number(retry)).toBeLessThanOrEqual(2);
    expect(r.body).toEqual({
      detail: `Request was throttled. Expected available in ${retry} seconds.`,
    });
    emu.advanceClock(2000);
    expect((await a.get('/v3.0/lists')).status).toBe(200);
    expect((await a.get('/v3.0/lists')).status).toBe(429);
    expect(emu.stats().throttled).toBe(3);
  });

  it('another client has its own bucket; token requests are not limited unless asked', async () => {
    emu.configure({ rateLimit: { rate: 1, burst: 1 } });
    emu.addClient({ clientId: 'second', clientSecret: 'second-secret' });
    expect((await a.get('/v3.0/lists')).status).toBe(200);
    expect((await a.get('/v3.0/lists')).status).toBe(429);
    for (let i = 0; i < 3; i++) expect((await tokenRequest(emu)).status).toBe(200);
    const b = await api(emu, await getToken(emu, 'second', 'second-secret'));
    expect((await b.get('/v3.0/lists')).status).toBe(200);

    emu.configure({ rateLimit: { rate: 1, burst: 1, includeTokenRequests: true } });
    expect((await tokenRequest(emu)).status).toBe(200);
    const limited = await tokenRequest(emu);
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('1');
  });

  it('unauthenticated requests get 401 before any throttling; off by default and after reset', async () => {
    expect(emu.config().rateLimit).toBeNull();
    emu.configure({ rateLimit: { rate: 1, burst: 1 } });
    for (let i = 0; i < 3; i++) expect((await call(emu, 'GET', '/v3.0/lists')).status).toBe(401);
    emu.reset();
    expect(emu.config().rateLimit).toBeNull();
    for (let i = 0; i < 5; i++) expect((await a.get('/v3.0/lists')).status).toBe(200);
  });

  it('configured at start and over the control API', async () => {
    const other = await startEmulator({ rateLimit: { rate: 1, burst: 2 } });
    try {
      const o = await api(other);
      expect([
        (await o.get('/v3.0/lists')).status,
        (await o.get('/v3.0/lists')).status,
        (await o.get('/v3.0/lists')).status,
      ]).toEqual([200, 200, 429]);
    } finally {
      await other.stop();
    }
    const r = await call(emu, 'PUT', '/__emulator/config', {
      json: { rateLimit: { rate: 1, burst: 1 } },
    });
    expect(r.body.rateLimit).toEqual({ rate: 1, burst: 1, includeTokenRequests: false });
    expect(
      (await call(emu, 'PUT', '/__emulator/config', { json: { rateLimit: { rate: -1 } } })).status
    ).toBe(400);
    expect(
      (await call(emu, 'PUT', '/__emulator/config', { json: { rateLimit: null } })).body.rateLimit
    ).toBeNull();
  });
});

describe('control API', () => {
  it('GET /__emulator lists the routes and the clients (no secrets)', async () => {
    const r = await call(emu, 'GET', '/__emulator');
    expect(r.status).toBe(200);
    expect(r.body.baseUrl).toBe(emu.baseUrl);
    expect(r.body.clients).toEqual([{ clientId: emu.clientId, scope: 'write read' }]);
    expect(r.text).not.toContain(emu.clientSecret);
  });

  it('state, requests (Authorization redacted, media shortened), stats, reset', async () => {
    const content = Buffer.alloc(3000, 1).toString('base64');
    await a.post(
      '/v3.0/pinpoints',
      place('p', { media_file: { content, name: 'a.bin', type: 'application/octet-stream' } })
    );
    await a.get('/v3.0/nothing-here');

    const state = (await call(emu, 'GET', '/__emulator/state')).body;
    expect(state).toEqual(JSON.parse(JSON.stringify(emu.state())));
    expect(state.pinpoints).toHaveLength(1);
    expect(state.media[0]).toMatchObject({
      size: 3000,
      type: 'application/octet-stream',
      sha256: expect.stringMatching(/^[0-9a-f]{64}$/),
    });

    const log = (await call(emu, 'GET', '/__emulator/requests')).body;
    expect(
      log.map((e: { method: string; path: string; status: number }) => [e.method, e.path, e.status])
    ).toEqual([
      ['POST', '/v3.0/pinpoints', 201],
      ['GET', '/v3.0/nothing-here', 404],
    ]);
    expect(log[0]).toMatchObject({
      seq: expect.any(Number),
      time: expect.any(String),
      clientId: emu.clientId,
      fault: null,
    });
    expect(log[0].headers.authorization).toBe('Bearer [redacted]');
    expect(JSON.stringify(log)).not.toContain(a.token);
    expect(log[0].body.media_file.content).toBe(`[${content.length} chars]`);
    expect(log[0].body.name).toBe('p');

    const filtered = (await call(emu, 'GET', `/__emulator/requests?method=get&since=${log[0].seq}`))
      .body;
    expect(filtered).toHaveLength(1);
    expect(emu.requests({ pathPrefix: '/v3.0/pinpoints' })).toHaveLength(1);
    expect(emu.requests({ limit: 1 })[0]!.path).toBe('/v3.0/nothing-here');

    const stats = (await call(emu, 'GET', '/__emulator/stats')).body;
    expect(stats).toMatchObject({
      total: 2,
      byMethod: { POST: 1, GET: 1 },
      byPathKind: { '/v3.0/pinpoints': 1, unknown: 1 },
      byStatus: { '201': 1, '404': 1 },
      byRoute: { 'POST /v3.0/pinpoints': { '201': 1 }, 'GET unknown': { '404': 1 } },
      throttled: 0,
    });

    expect((await call(emu, 'DELETE', '/__emulator/requests')).status).toBe(204);
    expect(emu.requests()).toEqual([]);
    expect((await call(emu, 'POST', '/__emulator/reset')).status).toBe(204);
    expect(emu.state().pinpoints).toEqual([]);
    expect(emu.stats().total).toBe(0);
    // ids start over after a reset
    expect(emu.create('pinpoints', place('again')).id).toBe(1000001);
  });

  it('the request log is a bounded ring buffer', async () => {
    const other = await startEmulator({ requestLogSize: 5 });
    try {
      for (let i = 0; i < 8; i++) await call(other, 'GET', `/v3.0/lists?i=${i}`);
      const log = other.requests();
      expect(log.map((e) => e.path)).toEqual([3, 4, 5, 6, 7].map((i) => `/v3.0/lists?i=${i}`));
      expect(other.stats().total).toBe(8);
    } finally {
      await other.stop();
    }
  });

  it('config: read, change, refuse bad values; clock; unknown routes', async () => {
    expect((await call(emu, 'GET', '/__emulator/config')).body).toEqual({
      putMode: 'merge',
      strict: true,
      pageSize: 20,
      maxMediaBytes: 5 * 1024 * 1024,
      rateLimit: null,
      dateStyle: 'ms-utc',
      tokenTtl: 36000,
      extraFields: true,
      pinpointDeleteTakesEvents: true,
      pagination: 'cursor',
      coordinateDecimals: null,
    });
    const changed = await call(emu, 'PUT', '/__emulator/config', {
      json: { strict: false, pageSize: 5, maxMediaBytes: 100, dateStyle: 'mixed' },
    });
    expect(changed.body).toMatchObject({
      strict: false,
      pageSize: 5,
      maxMediaBytes: 100,
      dateStyle: 'mixed',
    });
    expect(emu.config().pageSize).toBe(5);
    for (const bad of [
      { putMode: 'patch' },
      { pageSize: 0 },
      { strict: 'yes' },
      { color: 'red' },
      [1],
    ]) {
      const r = await call(emu, 'PUT', '/__emulator/config', { json: bad });
      expect(r.status).toBe(400);
      expect(r.body.detail).toEqual(expect.any(String));
    }
    expect(() => emu.configure({ dateStyle: 'rfc822' as never })).toThrow(TypeError);
    expect(
      (await call(emu, 'PUT', '/__emulator/config', { raw: '{', contentType: 'application/json' }))
        .status
    ).toBe(400);
    expect(
      (await call(emu, 'POST', '/__emulator/clock', { json: { advanceMs: 1000 } })).body
    ).toEqual({ offsetMs: 1000 });
    expect((await call(emu, 'POST', '/__emulator/clock', { json: { advanceMs: -5 } })).status).toBe(
      400
    );
    expect((await call(emu, 'GET', '/__emulator/nope')).status).toBe(404);
    expect((await call(emu, 'DELETE', '/__emulator/state')).status).toBe(405);
  });
});
