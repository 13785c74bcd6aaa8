import { createRemoteClient, RemoteError } from '../../server/src/remote';
import type { RemoteClientOptions } from '../../server/src/remote';
import {
  fakeFetch,
  never,
  recordingLogger,
  TOKEN_REPLY,
  type FakeHandler,
  type FakeReply,
} from './helpers/fake-fetch';

const BASE = 'https://api.example.test';
const SECRET = 'S3cr3t-client-secret-value';
const TOKEN = 'tok-AAAAAAAAAAAAAAAAAAAAAAAAAAAA';

function client(
  handler: FakeHandler,
  extra: Partial<RemoteClientOptions> = {},
  token?: FakeHandler
) {
  const fake = fakeFetch(handler, token);
  const remote = createRemoteClient({
    baseUrl: BASE,
    clientId: 'my-client',
    clientSecret: SECRET,
    fetch: fake.fetch,
    ...extra,
  });
  return { ...fake, remote };
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

const pinpoint = (id: number) => ({ id, name: `P${id}`, latitude: 1, longitude: 2 });

describe('token request', () => {
  it('is exactly the contract: POST, Basic header, form body', async () => {
    const { remote, tokenCalls } = client(() => ({ json: pinpoint(1) }));
    await remote.pinpoints.get(1);
    const [call] = tokenCalls();
    expect(call.url.href).toBe(`${BASE}/v3.0/oauth2/token`);
    expect(call.method).toBe('POST');
    expect(call.headers.Authorization).toBe(
      `Basic ${Buffer.from(`my-client:${SECRET}`).toString('base64')}`
    );
    expect(call.headers['Content-Type']).toBe('application/x-www-form-urlencoded');
    expect(Object.fromEntries(new URLSearchParams(call.body))).toEqual({
      client_id: 'my-client',
      grant_type: 'client_credentials',
    });
    expect(call.body).not.toContain(SECRET);
  });

  it('keeps a base path prefix', async () => {
    const fake = fakeFetch(() => ({ json: pinpoint(1) }));
    const remote = createRemoteClient({
      baseUrl: `${BASE}/proxy/`,
      clientId: 'c',
      clientSecret: SECRET,
      fetch: fake.fetch,
    });
    await remote.pinpoints.get(1);
    expect(fake.calls.map((c) => c.url.pathname)).toEqual([
      '/proxy/v3.0/oauth2/token',
      '/proxy/v3.0/pinpoints/1',
    ]);
  });

  it('is sent once for 50 concurrent calls (single flight) and then cached', async () => {
    const { remote, tokenCalls, apiCalls } = client((call) => ({
      json: pinpoint(Number(call.url.pathname.split('/').pop())),
    }));
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) => remote.pinpoints.get(i + 1))
    );
    expect(results.map((p) => p.id)).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
    expect(tokenCalls()).toHaveLength(1);
    await remote.pinpoints.get(99);
    expect(tokenCalls()).toHaveLength(1);
    expect(apiCalls().every((c) => c.headers.Authorization === `Bearer ${TOKEN}`)).toBe(true);
  });

  it('is renewed before expires_in runs out, with a margin', async () => {
    let now = 1_000_000;
    let n = 0;
    const { remote, tokenCalls, apiCalls } = client(
      () => ({ json: pinpoint(1) }),
      { now: () => now },
      () => ({
        json: { access_token: `token-number-${++n}`, expires_in: 100, token_type: 'Bearer' },
      })
    );
    await remote.pinpoints.get(1);
    now += 89_000; // margin is min(60 s, 10 %) = 10 s
    await remote.pinpoints.get(1);
    expect(tokenCalls()).toHaveLength(1);
    now += 1_500;
    await remote.pinpoints.get(1);
    expect(tokenCalls()).toHaveLength(2);
    expect(apiCalls().map((c) => c.headers.Authorization)).toEqual([
      'Bearer token-number-1',
      'Bearer token-number-1',
      'Bearer token-number-2',
    ]);
  });

  it('uses a 60 s margin for long lifetimes', async () => {
    let now = 0;
    const { remote, tokenCalls } = client(() => ({ json: pinpoint(1) }), { now: () => now });
    await remote.authenticate();
    now = 36_000_000 - 60_001;
    await remote.authenticate();
    expect(tokenCalls()).toHaveLength(1);
    now = 36_000_000 - 59_999;
    await remote.authenticate();
    expect(tokenCalls()).toHaveLength(2);
  });

  it.each([
    [401, { error: 'invalid_client' }],
    [400, { error: 'unsupported_grant_type' }],
  ])(
    'refused with %i -> permanent auth error an admin understands, without credentials',
    async (status, json) => {
      const { remote, apiCalls } = client(
        () => ({ json: pinpoint(1) }),
        {},
        () => ({ status, json })
      );
      const err = await caught(remote.pinpoints.get(1));
      expect(err.code).toBe('auth');
      expect(err.retryable).toBe(false);
      expect(err.status).toBe(status);
      expect(err.message).toMatch(/^The client id or secret was refused by api\.example\.test/);
      expect(err.message).toContain((json as { error: string }).error);
      expect(apiCalls()).toHaveLength(0);
      expect(JSON.stringify({ ...err.toJSON(), stack: err.stack })).not.toMatch(
        new RegExp(`${SECRET}|${Buffer.from(`my-client:${SECRET}`).toString('base64')}`)
      );
    }
  );

  it('a token endpoint that echoes the credentials does not leak them', async () => {
    const basic = Buffer.from(`my-client:${SECRET}`).toString('base64');
    const { remote } = client(
      () => ({}),
      {},
      (call) => ({
        status: 401,
        json: {
          error: 'invalid_client',
          got: call.headers.Authorization,
          client_secret: SECRET,
          note: `secret was ${SECRET}`,
        },
      })
    );
    const err = await caught(remote.authenticate());
    const shown = JSON.stringify({ message: err.message, body: err.body });
    expect(shown).not.toContain(SECRET);
    expect(shown).not.toContain(basic);
    expect(shown).toContain('[redacted]');
  });

  it('5xx and 429 from the token endpoint stay retryable', async () => {
    const { remote } = client(
      () => ({}),
      {},
      () => ({ status: 503, headers: { 'Retry-After': '5' }, text: '' })
    );
    const err = await caught(remote.authenticate());
    expect(err).toMatchObject({ code: 'server', status: 503, retryable: true, retryAfterMs: 5000 });
    const other = client(
      () => ({}),
      {},
      () => ({ status: 429, json: { detail: 'slow down' } })
    );
    expect(await caught(other.remote.authenticate())).toMatchObject({
      code: 'rate_limited',
      retryable: true,
    });
  });

  it('a 200 without access_token is a server error, and the next call asks again', async () => {
    let n = 0;
    const { remote, tokenCalls } = client(
      () => ({ json: pinpoint(1) }),
      {},
      () => (++n === 1 ? { json: { oops: true } } : TOKEN_REPLY)
    );
    expect(await caught(remote.authenticate())).toMatchObject({ code: 'server' });
    await expect(remote.pinpoints.get(1)).resolves.toMatchObject({ id: 1 });
    expect(tokenCalls()).toHaveLength(2);
  });

  it('a failed token request is shared by concurrent callers, not repeated by each', async () => {
    const { remote, tokenCalls } = client(
      () => ({}),
      {},
      () => ({ status: 401, json: { error: 'invalid_client' } })
    );
    const errors = await Promise.allSettled(
      Array.from({ length: 20 }, () => remote.pinpoints.get(1))
    );
    expect(errors.every((r) => r.status === 'rejected')).toBe(true);
    expect(tokenCalls()).toHaveLength(1);
  });
});

describe('401 on an API call', () => {
  it('renews the token once and retries the call once', async () => {
    let n = 0;
    const { remote, tokenCalls, apiCalls } = client(
      (call) =>
        call.headers.Authorization === 'Bearer token-number-1'
          ? { status: 401, json: { detail: 'expired' } }
          : { status: 201, json: pinpoint(7) },
      {},
      () => ({ json: { access_token: `token-number-${++n}`, expires_in: 36000 } })
    );
    await expect(remote.pinpoints.create({ name: 'x' })).resolves.toEqual(pinpoint(7));
    expect(tokenCalls()).toHaveLength(2);
    expect(apiCalls()).toHaveLength(2);
    expect(apiCalls()[1].body).toBe(apiCalls()[0].body);
  });

  it('50 concurrent 401s cause one renewal', async () => {
    let n = 0;
    const { remote, tokenCalls, apiCalls } = client(
      (call) =>
        call.headers.Authorization === 'Bearer token-number-1'
          ? { status: 401 }
          : { json: pinpoint(1) },
      {},
      () => ({ json: { access_token: `token-number-${++n}`, expires_in: 36000 } })
    );
    await remote.authenticate();
    await Promise.all(Array.from({ length: 50 }, () => remote.pinpoints.get(1)));
    expect(tokenCalls()).toHaveLength(2);
    expect(apiCalls()).toHaveLength(100);
  });

  it('a second 401 is a permanent auth error, with no third attempt', async () => {
    const { remote, tokenCalls, apiCalls } = client(() => ({
      status: 401,
      json: { detail: 'Authentication credentials were not provided.' },
    }));
    const err = await caught(remote.pinpoints.delete(3));
    expect(err).toMatchObject({
      code: 'auth',
      status: 401,
      retryable: false,
      method: 'DELETE',
      path: '/v3.0/pinpoints/3',
    });
    expect(err.message).toBe(
      '401 Unauthorized on DELETE /v3.0/pinpoints/3: Authentication credentials were not provided.'
    );
    expect(tokenCalls()).toHaveLength(2);
    expect(apiCalls()).toHaveLength(2);
  });
});

describe('requests', () => {
  it('send JSON with Accept and Content-Type, and no body on GET/DELETE', async () => {
    const { remote, apiCalls } = client((call) =>
      call.method === 'DELETE'
        ? { status: 204 }
        : { status: call.method === 'POST' ? 201 : 200, json: pinpoint(5) }
    );
    await remote.pinpoints.create({ name: 'a', latitude: 1 });
    await remote.pinpoints.update(5, { name: 'b' });
    await remote.pinpoints.get(5);
    await remote.pinpoints.delete(5);
    const [post, put, get, del] = apiCalls();
    expect(post).toMatchObject({ method: 'POST', body: '{"name":"a","latitude":1}' });
    expect(post.url.pathname).toBe('/v3.0/pinpoints');
    expect(post.headers).toMatchObject({
      Accept: 'application/json',
      'Content-Type': 'application/json',
      Authorization: `Bearer ${TOKEN}`,
    });
    expect(put).toMatchObject({ method: 'PUT', body: '{"name":"b"}' });
    expect(put.url.pathname).toBe('/v3.0/pinpoints/5');
    expect(get.body).toBeUndefined();
    expect(get.headers['Content-Type']).toBeUndefined();
    expect(del.method).toBe('DELETE');
    expect(del.body).toBeUndefined();
    expect(post.headers['User-Agent']).toBe('strapi-plugin-location-content');
  });

  it('never send unlisted fields, whatever the caller passes', async () => {
    const { remote, apiCalls } = client(() => ({ status: 201, json: { id: 1 } }));
    await remote.pinpoints.create({ name: 'a', id: 4, documentId: 'x', media_url: 'u' } as never);
    await remote.events.create({ name: 'e', pinpoint: 1, latitude: 3, dates: [] } as never);
    await remote.categories.create({ name: 'c', image_url: 'u' } as never);
    await remote.lists.create({ name: 'l', pinpoints: [1] } as never);
    expect(apiCalls().map((c) => JSON.parse(c.body!))).toEqual([
      { name: 'a' },
      { name: 'e', pinpoint: 1, dates: [] },
      { name: 'c' },
      { name: 'l' },
    ]);
  });

  it('refuse invalid ids before any request', async () => {
    const { remote, calls } = client(() => ({ json: {} }));
    await expect(remote.pinpoints.get(0)).rejects.toThrow(/Invalid pinpoint id/);
    await expect(remote.events.delete('1/../2' as unknown as number)).rejects.toThrow(TypeError);
    await expect(remote.lists.addPinpoints(1, [NaN])).rejects.toThrow(TypeError);
    expect(calls).toHaveLength(0);
  });

  it('read only listed fields and tolerate extras and loose number forms', async () => {
    const { remote } = client(() => ({
      json: {
        id: 3,
        name: 'n',
        latitude: '48.8566',
        longitude: 2.35,
        category: { id: 4, name: 'c' },
        tags: ['a', 1],
        media_url: null,
        created: '2020',
        status: 'published',
        author: { id: 1 },
        external_data: {},
      },
    }));
    expect(await remote.pinpoints.get(3)).toEqual({
      id: 3,
      name: 'n',
      latitude: 48.8566,
      longitude: 2.35,
      category: 4,
      tags: ['a', '1'],
      media_url: null,
    });
  });

  it('report an answer without id as a non-retryable server error', async () => {
    const { remote } = client(() => ({ status: 201, json: { name: 'x' } }));
    const err = await caught(remote.pinpoints.create({ name: 'x' }));
    expect(err).toMatchObject({ code: 'server', retryable: false, status: 201, method: 'POST' });
    expect(err.message).toMatch(/without an integer id/);
  });

  it('update tolerates an empty or id-less answer', async () => {
    const { remote } = client((call) =>
      call.url.pathname.includes('lists') ? { status: 200, text: '' } : { json: { name: 'y' } }
    );
    await expect(remote.lists.update(4, { name: 'x' })).resolves.toEqual({ id: 4 });
    await expect(remote.pinpoints.update(4, { name: 'y' })).resolves.toEqual({ id: 4, name: 'y' });
  });

  it('event dates come back as received', async () => {
    const dates = [
      { start: '2018-02-16T22:00:00.123456+02:00', end: '2018-02-16T23:00:00+02:00', extra: 1 },
    ];
    const { remote } = client(() => ({ json: { id: 1, name: 'e', dates, pinpoint: 3 } }));
    expect(await remote.events.get(1)).toEqual({
      id: 1,
      name: 'e',
      dates: [{ start: dates[0].start, end: dates[0].end }],
    });
  });
});

describe('delete', () => {
  it.each([[{ status: 204 }], [{ status: 200 }], [{ status: 200, json: { deleted: true } }]] as [
    FakeReply,
  ][])('accepts %j', async (reply) => {
    const { remote } = client(() => reply);
    await expect(remote.events.delete(1)).resolves.toBeUndefined();
  });

  it('reports 404 distinctly so callers can treat it as already gone', async () => {
    const { remote } = client(() => ({ status: 404, json: { detail: 'Not found.' } }));
    const err = await caught(remote.lists.delete(8));
    expect(err).toMatchObject({
      status: 404,
      code: 'not_found',
      retryable: false,
      body: { detail: 'Not found.' },
    });
    expect(err.message).toBe('404 Not Found on DELETE /v3.0/lists/8: Not found.');
  });
});

describe('list membership', () => {
  it('POSTs and DELETEs [{id}] and returns errors as received', async () => {
    const weird = [{ id: 9, reason: { code: 'x' } }, 'text error'];
    const { remote, apiCalls } = client((call) => ({
      json: { errors: call.method === 'POST' ? weird : [], total: 2, extra: 1 },
    }));
    expect(await remote.lists.addPinpoints(5, [1, 9])).toEqual({ errors: weird, total: 2 });
    expect(await remote.lists.removePinpoints(5, [1])).toEqual({ errors: [], total: 2 });
    expect(apiCalls().map((c) => [c.method, c.url.pathname, c.body])).toEqual([
      ['POST', '/v3.0/lists/5/pinpoints', '[{"id":1},{"id":9}]'],
      ['DELETE', '/v3.0/lists/5/pinpoints', '[{"id":1}]'],
    ]);
  });

  it('spends no call on an empty id list', async () => {
    const { remote, calls } = client(() => ({ json: {} }));
    expect(await remote.lists.addPinpoints(5, [])).toEqual({ errors: [], total: 0 });
    expect(calls).toHaveLength(0);
  });
});

describe('pagination', () => {
  const page = (ids: number[], next: string | null, previous: string | null = null) => ({
    json: { count: 5, next, previous, results: ids.map(pinpoint) },
  });

  it('starts at the plain collection path with the documented filter, then follows next only', async () => {
    // Opaque links in a format the client could never guess.
    const { remote, apiCalls } = client((call) => {
      if (call.url.pathname === '/v3.0/pinpoints')
        return page([1, 2], `${BASE}/cursor/abc?token=zz&x=1`);
      if (call.url.pathname === '/cursor/abc')
        return page([3, 4], `${BASE}/cursor/def`, `${BASE}/v3.0/pinpoints`);
      return page([5], null, `${BASE}/cursor/abc`);
    });
    const ids: number[] = [];
    for await (const p of remote.pinpoints.list({ list: 12 })) ids.push(p.id);
    expect(ids).toEqual([1, 2, 3, 4, 5]);
    expect(apiCalls().map((c) => c.url.href)).toEqual([
      `${BASE}/v3.0/pinpoints?list=12`,
      `${BASE}/cursor/abc?token=zz&x=1`,
      `${BASE}/cursor/def`,
    ]);
  });

  it('listPages yields pages, and stopping early sends no further request', async () => {
    const { remote, apiCalls } = client(() => page([1], `${BASE}/next`));
    for await (const p of remote.events.listPages({ pinpoint: 3 })) {
      expect(p).toMatchObject({ count: 5, next: `${BASE}/next`, previous: null });
      break;
    }
    expect(apiCalls().map((c) => c.url.search)).toEqual(['?pinpoint=3']);
  });

  it('omits the filter when none is given', async () => {
    const { remote, apiCalls } = client(() => page([], null));
    for await (const _ of remote.categories.list()) void _;
    for await (const _ of remote.lists.list()) void _;
    expect(apiCalls().map((c) => c.url.href)).toEqual([
      `${BASE}/v3.0/categories`,
      `${BASE}/v3.0/lists`,
    ]);
  });

  it('does not send the token to another host', async () => {
    const { remote, apiCalls } = client(() =>
      page([1], 'https://evil.test/v3.0/pinpoints?offset=20')
    );
    const ids: number[] = [];
    const err = await caught(
      (async () => {
        for await (const p of remote.pinpoints.list()) ids.push(p.id);
      })()
    );
    expect(ids).toEqual([1]);
    expect(err).toMatchObject({ code: 'server', retryable: false });
    expect(err.message).toMatch(/another host \(evil\.test\)/);
    expect(apiCalls()).toHaveLength(1);
  });

  it('keeps https when the service advertises http links (TLS-terminating proxy)', async () => {
    const { remote, apiCalls } = client((call) =>
      call.url.search
        ? page([2], null)
        : page([1], 'http://api.example.test/v3.0/pinpoints?limit=20&offset=20')
    );
    const ids: number[] = [];
    for await (const p of remote.pinpoints.list()) ids.push(p.id);
    expect(ids).toEqual([1, 2]);
    expect(apiCalls()[1].url.href).toBe(`${BASE}/v3.0/pinpoints?limit=20&offset=20`);
  });

  it('stops on a link loop instead of hammering the remote', async () => {
    const { remote, apiCalls } = client(() => page([1], `${BASE}/v3.0/pinpoints?page=2`));
    await expect(
      (async () => {
        for await (const _ of remote.pinpoints.list()) void _;
      })()
    ).rejects.toThrow(/already followed/);
    expect(apiCalls()).toHaveLength(2);
  });

  it('rejects a page without results', async () => {
    const { remote } = client(() => ({ json: [pinpoint(1)] }));
    const err = await caught(remote.pinpoints.listPages().next());
    expect(err.message).toMatch(/results array/);
  });
});

describe('error classification', () => {
  it.each([
    [400, 'validation', false],
    [403, 'forbidden', false],
    [404, 'not_found', false],
    [405, 'client', false],
    [408, 'timeout', true],
    [409, 'client', false],
    [413, 'client', false],
    [429, 'rate_limited', true],
    [500, 'server', true],
    [502, 'server', true],
    [503, 'server', true],
    [504, 'server', true],
  ])('%i -> %s, retryable %s', async (status, code, retryable) => {
    const { remote } = client(() => ({ status, text: '' }));
    const err = await caught(remote.pinpoints.create({ name: 'x' }));
    expect(err).toMatchObject({
      status,
      code,
      retryable,
      method: 'POST',
      path: '/v3.0/pinpoints',
      body: undefined,
    });
    expect(err.message).toMatch(new RegExp(`^${status} .* on POST /v3\\.0/pinpoints$`));
  });

  it('puts DRF field errors in the message', async () => {
    const json = { latitude: ['Ensure this value is less than or equal to 90.'] };
    const { remote } = client(() => ({ status: 400, json }));
    const err = await caught(remote.pinpoints.create({ name: 'x', latitude: 91 }));
    expect(err.message).toBe(
      '400 Bad Request on POST /v3.0/pinpoints: latitude: Ensure this value is less than or equal to 90.'
    );
    expect(err.body).toEqual(json);
  });

  it('keeps HTML and unknown JSON bodies, classified by status', async () => {
    const html = '<html><head><title>502 Bad Gateway</title></head><body>nginx</body></html>';
    const first = client(() => ({ status: 502, statusText: 'Bad Gateway', text: html }));
    const err = await caught(first.remote.pinpoints.get(1));
    expect(err).toMatchObject({ code: 'server', retryable: true, body: html });
    expect(err.message).toBe(
      '502 Bad Gateway on GET /v3.0/pinpoints/1: HTML page "502 Bad Gateway"'
    );
    const second = client(() => ({ status: 418, json: { oops: { nested: 'x' } } }));
    expect(await caught(second.remote.pinpoints.get(1))).toMatchObject({
      code: 'client',
      status: 418,
      body: { oops: { nested: 'x' } },
    });
  });

  it('parses Retry-After as seconds or HTTP-date on 429 and 503', async () => {
    const secs = client(() => ({
      status: 429,
      headers: { 'Retry-After': '17' },
      json: { detail: 'Request was throttled. Expected available in 17 seconds.' },
    }));
    const err = await caught(secs.remote.pinpoints.get(1));
    expect(err).toMatchObject({ code: 'rate_limited', retryAfterMs: 17_000, retryable: true });
    expect(err.message).toBe(
      '429 Too Many Requests on GET /v3.0/pinpoints/1: Request was throttled. Expected available in 17 seconds.'
    );
    const date = new Date(Date.now() + 120_000).toUTCString();
    const dated = client(() => ({ status: 503, headers: { 'Retry-After': date } }));
    const err2 = await caught(dated.remote.pinpoints.get(1));
    expect(err2.retryAfterMs).toBeGreaterThan(100_000);
    expect(err2.retryAfterMs).toBeLessThanOrEqual(120_000);
  });

  it('truncates huge bodies', async () => {
    const { remote } = client(() => ({ status: 500, text: 'z'.repeat(100_000) }));
    const err = await caught(remote.pinpoints.get(1));
    expect((err.body as string).length).toBeLessThan(5000);
    expect(err.message.length).toBeLessThan(700);
  });

  it('does not follow redirects: the credentials would go with them', async () => {
    const { remote, apiCalls } = client(() => ({
      status: 301,
      headers: { Location: 'https://elsewhere.test/v3.0/pinpoints/1' },
    }));
    const err = await caught(remote.pinpoints.get(1));
    expect(err).toMatchObject({ code: 'client', status: 301, retryable: false });
    expect(err.message).toMatch(/redirect .* to elsewhere\.test: check the base URL/);
    expect(apiCalls()).toHaveLength(1);
  });

  it('a 2xx that is not JSON is a server error, retryable except for POST', async () => {
    const { remote } = client(() => ({ status: 200, text: '<html>maintenance</html>' }));
    expect(await caught(remote.pinpoints.get(1))).toMatchObject({
      code: 'server',
      retryable: true,
    });
    expect(await caught(remote.pinpoints.create({ name: 'x' }))).toMatchObject({
      code: 'server',
      retryable: false,
    });
  });

  it('times out with AbortController', async () => {
    const { remote } = client((call) => never(call), { timeoutMs: 50 });
    const started = Date.now();
    const err = await caught(remote.pinpoints.get(1));
    expect(Date.now() - started).toBeLessThan(2000);
    expect(err).toMatchObject({
      code: 'timeout',
      retryable: true,
      status: undefined,
      method: 'GET',
      path: '/v3.0/pinpoints/1',
    });
    expect(err.message).toBe('Timed out after 50 ms on GET /v3.0/pinpoints/1 (api.example.test)');
  });

  it.each(['ECONNRESET', 'ECONNREFUSED', 'ENOTFOUND'])('%s -> network, retryable', async (code) => {
    const { remote } = client(() => {
      throw Object.assign(
        new Error(`request to ${BASE}/v3.0/pinpoints/1 failed, reason: ${code}`),
        { code, type: 'system' }
      );
    });
    const err = await caught(remote.pinpoints.get(1));
    expect(err).toMatchObject({ code: 'network', retryable: true, status: undefined });
    expect(err.message).toBe(`Network error on GET /v3.0/pinpoints/1: ${code} (api.example.test)`);
  });
});

describe('secrets', () => {
  it('never appear in messages, bodies or log lines, even when the server echoes them', async () => {
    const { logger, lines } = recordingLogger();
    const { remote } = client(
      (call) => ({
        status: 400,
        json: {
          detail: `bad header ${call.headers.Authorization}`,
          echo: { Authorization: call.headers.Authorization, secret: SECRET },
        },
      }),
      { logger }
    );
    const err = await caught(remote.pinpoints.create({ name: SECRET.slice(0, 3) }));
    const everything = JSON.stringify([err.message, err.body, err.stack, lines, err.toJSON()]);
    expect(everything).not.toContain(SECRET);
    expect(everything).not.toContain(TOKEN);
    expect(err.message).toBe(
      '400 Bad Request on POST /v3.0/pinpoints: bad header Bearer [redacted]'
    );
    expect(lines.length).toBeGreaterThan(0);
  });

  it('redact secret query values from paths', async () => {
    const { remote } = client((call) =>
      call.url.search.includes('token')
        ? { status: 500 }
        : { json: { results: [], next: `${BASE}/v3.0/pinpoints?access_token=${TOKEN}&offset=20` } }
    );
    const err = await caught(
      (async () => {
        for await (const _ of remote.pinpoints.list()) void _;
      })()
    );
    expect(err.path).toBe('/v3.0/pinpoints?access_token=redacted&offset=20');
    expect(err.message).not.toContain(TOKEN);
  });

  it('a throwing logger does not break calls', async () => {
    const boom = () => {
      throw new Error('sink down');
    };
    const { remote } = client(() => ({ json: pinpoint(1) }), {
      logger: { debug: boom, info: boom, warn: boom, error: boom },
    });
    await expect(remote.pinpoints.get(1)).resolves.toMatchObject({ id: 1 });
  });
});

describe('hooks', () => {
  it('report every HTTP call, token included, with status and duration', async () => {
    const seen: unknown[] = [];
    const { remote } = client(
      (call) => (call.method === 'GET' ? { json: pinpoint(1) } : { status: 503 }),
      {
        onRequest: (info) => seen.push(['req', info.method, info.path]),
        onResponse: (info) =>
          seen.push(['res', info.method, info.path, info.status, typeof info.durationMs]),
      }
    );
    await remote.pinpoints.get(1);
    await remote.pinpoints.delete(1).catch(() => undefined);
    expect(seen).toEqual([
      ['req', 'POST', '/v3.0/oauth2/token'],
      ['res', 'POST', '/v3.0/oauth2/token', 200, 'number'],
      ['req', 'GET', '/v3.0/pinpoints/1'],
      ['res', 'GET', '/v3.0/pinpoints/1', 200, 'number'],
      ['req', 'DELETE', '/v3.0/pinpoints/1'],
      ['res', 'DELETE', '/v3.0/pinpoints/1', 503, 'number'],
    ]);
  });

  it('a throwing hook does not break calls, and failures report no status', async () => {
    const responses: unknown[] = [];
    const { remote } = client(
      (call) => never(call),
      {
        timeoutMs: 20,
        onRequest: () => {
          throw new Error('metrics down');
        },
        onResponse: (info) => responses.push(info),
      },
      () => TOKEN_REPLY
    );
    await expect(remote.pinpoints.get(1)).rejects.toMatchObject({ code: 'timeout' });
    expect(responses[1]).toMatchObject({ method: 'GET', error: 'timeout' });
    expect((responses[1] as { status?: number }).status).toBeUndefined();
  });
});

describe('options', () => {
  it.each([
    [{ baseUrl: 'not a url' }, /Invalid base URL/],
    [{ baseUrl: 'ftp://x.test' }, /expected http or https/],
    [{ baseUrl: 'https://u:p@x.test' }, /must not carry credentials/],
    [{ clientId: '' }, /clientId is required/],
    [{ clientSecret: '' }, /clientSecret is required/],
    [{ timeoutMs: 0 }, /timeoutMs/],
  ])('rejects %j', (override, message) => {
    expect(() =>
      createRemoteClient({ baseUrl: BASE, clientId: 'c', clientSecret: 's', ...override })
    ).toThrow(message);
  });

  it('exposes the normalized base URL and closes its agents', () => {
    const remote = createRemoteClient({ baseUrl: `${BASE}/`, clientId: 'c', clientSecret: 's' });
    expect(remote.baseUrl).toBe(BASE);
    remote.close();
  });
});
