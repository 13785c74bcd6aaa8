/**
 * The client against the emulator over real HTTP (undici, keep-alive
 * sockets): what a fake fetch cannot prove — the token dance with a real
 * server, opaque cursors, and how real sockets fail.
 */
import { startEmulator } from '../../emulator/src';
import { createRemoteClient, RemoteError, toMsUtc } from '../../server/src/remote';
import type { RemoteClient, RemoteClientOptions } from '../../server/src/remote';
import { recordingLogger } from './helpers/fake-fetch';

type Emulator = Awaited<ReturnType<typeof startEmulator>>;

let emu: Emulator;

function connect(extra: Partial<RemoteClientOptions> = {}): RemoteClient {
  const remote = createRemoteClient({
    baseUrl: emu.baseUrl,
    clientId: emu.clientId,
    clientSecret: emu.clientSecret,
    timeoutMs: 30_000,
    ...extra,
  });
  return remote;
}

async function caught(promise: Promise<unknown>): Promise<RemoteError> {
  try {
    await promise;
  } catch (err) {
    expect(err).toBeInstanceOf(RemoteError);
    return err as RemoteError;
  }
  throw new Error('expected a RemoteError');
}

const tokenRequests = () => emu.requests({ pathPrefix: '/v3.0/oauth2/token' });
const place = (name: string) => ({ name, latitude: 48.85, longitude: 2.35 });

beforeAll(async () => {
  // strict: any field the contract does not list is answered 400, so a leak fails loudly.
  emu = await startEmulator({ strict: true, pageSize: 20 });
});

afterEach(() => {
  jest.restoreAllMocks();
  emu.reset({ tokens: true });
});

afterAll(async () => {
  await emu.stop();
});

describe('auth', () => {
  it('gets one token and uses it', async () => {
    const remote = connect();
    const created = await remote.pinpoints.create({ ...place('Louvre'), tags: ['museum'] });
    await remote.pinpoints.get(created.id);
    expect(tokenRequests()).toHaveLength(1);
    expect(emu.requests({ pathPrefix: '/v3.0/pinpoints' }).map((r) => r.status)).toEqual([
      201, 200,
    ]);
  });

  it('50 concurrent first calls send exactly one token request', async () => {
    const remote = connect();
    await Promise.all(Array.from({ length: 50 }, (_, i) => remote.lists.create({ name: `L${i}` })));
    expect(tokenRequests()).toHaveLength(1);
    expect(emu.state().lists).toHaveLength(50);
  });

  it('renews ahead of a short expires_in, without a 401', async () => {
    emu.configure({ tokenTtl: 5 });
    // Date.now is the clock of the client and of the emulator alike.
    const realNow = Date.now;
    let offset = 0;
    jest.spyOn(Date, 'now').mockImplementation(() => realNow() + offset);
    const remote = connect();
    await remote.categories.create({ name: 'c' });
    offset += 5000;
    await remote.categories.create({ name: 'd' });
    expect(tokenRequests()).toHaveLength(2);
    expect(emu.requests().filter((r) => r.status === 401)).toHaveLength(0);
  });

  it('recovers when a token expires server-side earlier than announced', async () => {
    emu.configure({ tokenTtl: 5 });
    const remote = connect();
    await remote.authenticate();
    emu.advanceClock(6000);
    await expect(remote.lists.create({ name: 'x' })).resolves.toMatchObject({
      id: expect.any(Number),
    });
    expect(tokenRequests()).toHaveLength(2);
  });

  it('after token revocation: one 401, one renewal, then success', async () => {
    const remote = connect();
    const pp = await remote.pinpoints.create(place('a'));
    expect(emu.revokeTokens()).toBeGreaterThan(0);
    await expect(remote.pinpoints.update(pp.id, { name: 'b' })).resolves.toMatchObject({
      id: pp.id,
      name: 'b',
    });
    expect(tokenRequests()).toHaveLength(2);
    expect(emu.requests({ method: 'PUT' }).map((r) => r.status)).toEqual([401, 200]);
  });

  it('wrong secret: permanent auth error naming the host, secret nowhere', async () => {
    const { logger, lines } = recordingLogger();
    const remote = connect({ clientSecret: 'wrong-secret-value', logger });
    const err = await caught(remote.pinpoints.get(1));
    expect(err).toMatchObject({ code: 'auth', status: 401, retryable: false });
    expect(err.message).toBe(
      `The client id or secret was refused by ${new URL(emu.baseUrl).host} (401 Unauthorized: invalid_client)`
    );
    expect(JSON.stringify([err.message, err.body, lines])).not.toContain('wrong-secret-value');
    expect(emu.requests({ pathPrefix: '/v3.0/pinpoints' })).toHaveLength(0);
  });
});

describe('resources', () => {
  it('pinpoint create, update (PUT), get, delete; a second delete is not_found', async () => {
    const remote = connect();
    const image = {
      content: Buffer.from('fake png bytes').toString('base64'),
      name: 'a.png',
      type: 'image/png',
    };
    const category = await remote.categories.create({ name: 'Museums', image_file: image });
    expect(category).toMatchObject({ id: expect.any(Number), name: 'Museums' });
    const created = await remote.pinpoints.create({
      ...place('Louvre'),
      description: '<p>x</p>',
      address: 'Paris',
      altitude: 30,
      category: category.id,
      tags: ['a'],
      media_credits: 'me',
      media_file: image,
    });
    expect(created).toMatchObject({
      name: 'Louvre',
      category: category.id,
      tags: ['a'],
      media_url: expect.any(String),
    });
    expect(Object.keys(created).sort()).toEqual([
      'address',
      'category',
      'description',
      'id',
      'latitude',
      'longitude',
      'media_credits',
      'media_url',
      'name',
      'tags',
    ]);
    const updated = await remote.pinpoints.update(created.id, { ...place('Louvre museum') });
    expect(updated.name).toBe('Louvre museum');
    expect((await remote.pinpoints.get(created.id)).name).toBe('Louvre museum');
    await remote.pinpoints.delete(created.id);
    const err = await caught(remote.pinpoints.delete(created.id));
    expect(err).toMatchObject({ code: 'not_found', status: 404, retryable: false });
  });

  it('events: dates in any form come back to the same instants; filter by pinpoint', async () => {
    emu.configure({ dateStyle: 'mixed' });
    const remote = connect();
    const [a, b] = [
      await remote.pinpoints.create(place('a')),
      await remote.pinpoints.create(place('b')),
    ];
    const dates = [
      { start: '2018-02-16T22:00:00+02:00', end: '2018-02-16T23:00:00.5+02:00' },
      { start: '2018-02-17T20:00:00Z', end: '2018-02-17T21:00:00Z' },
    ];
    const ev = await remote.events.create({ name: 'Concert', pinpoint: a.id, dates });
    await remote.events.create({ name: 'Other', pinpoint: b.id, dates });
    expect(emu.state().events[0]!.dates).toEqual([
      { start: '2018-02-16T20:00:00.000Z', end: '2018-02-16T21:00:00.500Z' },
      { start: '2018-02-17T20:00:00.000Z', end: '2018-02-17T21:00:00.000Z' },
    ]);
    const got = await remote.events.get(ev.id);
    expect(got.dates!.map((d) => [toMsUtc(d.start), toMsUtc(d.end)])).toEqual(
      emu.state().events[0]!.dates.map((d) => [d.start, d.end])
    );
    const names: string[] = [];
    for await (const e of remote.events.list({ pinpoint: a.id })) names.push(e.name!);
    expect(names).toEqual(['Concert']);
    await remote.events.delete(ev.id);
    expect(emu.state().events).toHaveLength(1);
  });

  it('lists: create, update, membership add/remove, pinpoints by list, delete', async () => {
    const remote = connect();
    const list = await remote.lists.create({ name: 'Tour', description: '<p>d</p>' });
    const pps = await Promise.all([1, 2, 3].map((i) => remote.pinpoints.create(place(`p${i}`))));
    const added = await remote.lists.addPinpoints(
      list.id,
      pps.map((p) => p.id)
    );
    expect(added).toEqual({ errors: [], total: expect.any(Number) });
    const withMissing = await remote.lists.addPinpoints(list.id, [999_999]);
    expect(Array.isArray(withMissing.errors)).toBe(true);
    await remote.lists.removePinpoints(list.id, [pps[0]!.id]);
    const inList: number[] = [];
    for await (const p of remote.pinpoints.list({ list: list.id })) inList.push(p.id);
    expect(inList).toEqual([pps[1]!.id, pps[2]!.id]);
    await expect(remote.lists.update(list.id, { name: 'Tour 2' })).resolves.toMatchObject({
      id: list.id,
    });
    await remote.lists.delete(list.id);
    expect(emu.state().lists).toHaveLength(0);
  });
});

describe('pagination', () => {
  it('walks 45 pinpoints in pages of 20 by following next only', async () => {
    for (let i = 1; i <= 45; i += 1) emu.create('pinpoints', place(`p${i}`));
    const remote = connect();
    const pages = [];
    for (let link: string | null | undefined; link !== null;) {
      const page = await remote.pinpoints.page({ link });
      pages.push(page);
      link = page.next;
    }
    expect(pages.map((p) => p.results.length)).toEqual([20, 20, 5]);
    expect(pages[2]!.next).toBeNull();
    const gets = emu.requests({ method: 'GET', pathPrefix: '/v3.0/pinpoints' });
    expect(gets[0]!.path).toBe('/v3.0/pinpoints');
    expect(gets.slice(1).map((r) => `${emu.baseUrl}${r.path}`)).toEqual([
      pages[0]!.next,
      pages[1]!.next,
    ]);
    const ids: number[] = [];
    for await (const p of remote.pinpoints.list()) ids.push(p.id);
    expect(new Set(ids).size).toBe(45);
    expect(emu.requests().filter((r) => r.status !== null && r.status >= 400)).toHaveLength(0);
  });
});

describe('errors', () => {
  it('400 validation carries the field message', async () => {
    const remote = connect();
    const err = await caught(remote.pinpoints.create({ name: 'x', latitude: 91, longitude: 2 }));
    expect(err).toMatchObject({
      code: 'validation',
      status: 400,
      retryable: false,
      method: 'POST',
      path: '/v3.0/pinpoints',
    });
    expect(err.message).toBe(
      '400 Bad Request on POST /v3.0/pinpoints: latitude: Ensure this value is less than or equal to 90.'
    );
    expect(err.body).toEqual({ latitude: ['Ensure this value is less than or equal to 90.'] });
  });

  it('404 on get', async () => {
    const err = await caught(connect().categories.get(424242));
    expect(err).toMatchObject({
      code: 'not_found',
      status: 404,
      retryable: false,
      path: '/v3.0/categories/424242',
    });
  });

  it('429 with Retry-After', async () => {
    const remote = connect();
    await remote.authenticate();
    emu.setFaults({
      script: [{ kind: 'status', status: 429, retryAfter: 7, pathPrefix: '/v3.0/lists' }],
    });
    const err = await caught(remote.lists.create({ name: 'x' }));
    expect(err).toMatchObject({
      code: 'rate_limited',
      status: 429,
      retryable: true,
      retryAfterMs: 7000,
    });
    expect(emu.state().lists).toHaveLength(0);
  });

  it('429 from the rate limiter', async () => {
    emu.configure({ rateLimit: { rate: 1, burst: 2 } });
    const remote = connect();
    const results = await Promise.allSettled(
      Array.from({ length: 6 }, () => remote.categories.get(1))
    );
    const limited = results.filter(
      (r) => r.status === 'rejected' && (r.reason as RemoteError).code === 'rate_limited'
    );
    expect(limited.length).toBeGreaterThan(0);
    expect((limited[0] as PromiseRejectedResult).reason.retryAfterMs).toBeGreaterThan(0);
  });

  it('5xx with an HTML body', async () => {
    const remote = connect();
    emu.setFaults({ script: [{ kind: 'status', status: 503, pathPrefix: '/v3.0/events' }] });
    const err = await caught(remote.events.get(1));
    expect(err).toMatchObject({ code: 'server', status: 503, retryable: true });
    expect(err.message).toMatch(/^503 Service Unavailable on GET \/v3\.0\/events\/1/);
    expect(err.body).toBeDefined();
  });

  it('connection reset -> network, retryable', async () => {
    const remote = connect();
    await remote.authenticate();
    emu.setFaults({ script: [{ kind: 'reset-before', pathPrefix: '/v3.0/pinpoints' }] });
    const err = await caught(remote.pinpoints.create(place('x')));
    expect(err).toMatchObject({ code: 'network', retryable: true, status: undefined });
    expect(err.message).toMatch(/^Network error on POST \/v3\.0\/pinpoints: /);
    expect(emu.state().pinpoints).toHaveLength(0);
    // the keep-alive pool recovers from the dead socket
    await expect(remote.pinpoints.create(place('y'))).resolves.toMatchObject({ name: 'y' });
  });

  it('reset after the write: network error although the object exists (callers must reconcile)', async () => {
    const remote = connect();
    emu.setFaults({
      script: [{ kind: 'reset-after', method: 'POST', pathPrefix: '/v3.0/pinpoints' }],
    });
    expect(await caught(remote.pinpoints.create(place('ghost')))).toMatchObject({
      code: 'network',
    });
    expect(emu.state().pinpoints.map((p) => p.name)).toEqual(['ghost']);
  });

  it('timeout', async () => {
    const remote = connect({ timeoutMs: 150 });
    await remote.authenticate();
    emu.setFaults({ script: [{ kind: 'latency', latencyMs: 1000, pathPrefix: '/v3.0/lists' }] });
    const err = await caught(remote.lists.get(1));
    expect(err).toMatchObject({ code: 'timeout', retryable: true });
  });

  it('connection refused -> network', async () => {
    const remote = createRemoteClient({
      baseUrl: 'http://127.0.0.1:1',
      clientId: 'a',
      clientSecret: 'bbbbbbbb',
      timeoutMs: 30_000,
    });
    const err = await caught(remote.authenticate());
    expect(err).toMatchObject({ code: 'network', retryable: true });
    expect(err.message).toBe(
      'Network error on POST /v3.0/oauth2/token: ECONNREFUSED (127.0.0.1:1)'
    );
  });
});
