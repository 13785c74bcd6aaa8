// The client's OAuth2 token: the exact request, single flight, renewal, refusals, and a 401 on a call.
import { createRemoteClient } from '../../server/src/remote';
import { fakeFetch, TOKEN_REPLY } from './helpers/fake-fetch';
import { BASE, SECRET, TOKEN, caught, client, pinpoint } from './helpers/remote-client';

afterEach(() => jest.restoreAllMocks());

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
      timeoutMs: 30_000,
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
    jest.spyOn(Date, 'now').mockImplementation(() => now);
    let n = 0;
    const { remote, tokenCalls, apiCalls } = client(
      () => ({ json: pinpoint(1) }),
      {},
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
    jest.spyOn(Date, 'now').mockImplementation(() => now);
    const { remote, tokenCalls } = client(() => ({ json: pinpoint(1) }));
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

  it('keeps the Basic credentials redacted after more token renewals than it remembers tokens', async () => {
    const basic = Buffer.from(`my-client:${SECRET}`).toString('base64');
    let now = 0;
    jest.spyOn(Date, 'now').mockImplementation(() => now);
    let n = 0;
    const { remote } = client(
      () => ({}),
      {},
      () =>
        ++n <= 9
          ? { json: { access_token: `token-number-${n}`, expires_in: 100 } }
          : { status: 500, json: { note: `credentials ${basic}` } }
    );
    for (let i = 0; i < 9; i++, now += 100_000) await remote.authenticate();
    const err = await caught(remote.authenticate());
    expect(JSON.stringify({ message: err.message, body: err.body })).not.toContain(basic);
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
