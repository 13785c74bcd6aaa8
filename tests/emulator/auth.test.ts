import { startEmulator, type EmulatorHandle } from '../../emulator/src';
import { api, basic, call, getToken, tokenRequest } from './helpers';

let emu: EmulatorHandle;

beforeAll(async () => {
  emu = await startEmulator({
    clients: [
      { clientId: 'writer', clientSecret: 'writer-secret' },
      { clientId: 'reader', clientSecret: 'reader-secret', scope: 'read' },
    ],
  });
});
afterEach(() => emu.reset({ tokens: true }));
afterAll(() => emu.stop());

describe('POST /v3.0/oauth2/token', () => {
  it('answers the contract shape with an opaque 30-char token', async () => {
    const r = await tokenRequest(emu);
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      access_token: expect.any(String),
      expires_in: 36000,
      scope: 'write read',
      token_type: 'Bearer',
    });
    expect(r.body.access_token).toMatch(/^[A-Za-z0-9]{30}$/);
    expect(r.headers.get('cache-control')).toBe('no-store');
    expect(emu.clientId).toBe('writer');
    expect(emu.state().activeTokens).toBe(1);
  });

  it('defaults to demo-client / demo-secret and takes expires_in from tokenTtl', async () => {
    const other = await startEmulator({ tokenTtl: 120 });
    try {
      expect([other.clientId, other.clientSecret]).toEqual(['demo-client', 'demo-secret']);
      expect((await tokenRequest(other)).body.expires_in).toBe(120);
      other.configure({ tokenTtl: 7 });
      expect((await tokenRequest(other)).body.expires_in).toBe(7);
    } finally {
      await other.stop();
    }
  });

  it('401 invalid_client for a bad secret, an unknown client or no credentials', async () => {
    for (const r of [
      await tokenRequest(emu, 'writer', 'nope'),
      await tokenRequest(emu, 'ghost', 'writer-secret'),
      await call(emu, 'POST', '/v3.0/oauth2/token', {
        raw: 'client_id=writer&grant_type=client_credentials',
        contentType: 'application/x-www-form-urlencoded',
      }),
      await tokenRequest(
        emu,
        'writer',
        'writer-secret',
        'client_id=reader&grant_type=client_credentials'
      ),
    ]) {
      expect(r.status).toBe(401);
      expect(r.body).toEqual({ error: 'invalid_client' });
    }
  });

  it('400 unsupported_grant_type for a wrong or missing grant', async () => {
    for (const form of ['client_id=writer&grant_type=password', 'client_id=writer']) {
      const r = await tokenRequest(emu, 'writer', 'writer-secret', form);
      expect(r.status).toBe(400);
      expect(r.body).toEqual({ error: 'unsupported_grant_type' });
    }
  });

  it('400 invalid_request for a JSON body, 405 for GET', async () => {
    const r = await call(emu, 'POST', '/v3.0/oauth2/token', {
      json: { client_id: 'writer', grant_type: 'client_credentials' },
      headers: { authorization: basic('writer', 'writer-secret') },
    });
    expect(r.status).toBe(400);
    expect(r.body.error).toBe('invalid_request');
    expect((await call(emu, 'GET', '/v3.0/oauth2/token')).status).toBe(405);
  });

  it('strict mode insists on the Basic header and the client_id form field', async () => {
    emu.configure({ strict: true });
    const noClientId = await tokenRequest(
      emu,
      'writer',
      'writer-secret',
      'grant_type=client_credentials'
    );
    expect(noClientId.status).toBe(400);
    expect(noClientId.body.error).toBe('invalid_request');
    const formSecret = await call(emu, 'POST', '/v3.0/oauth2/token', {
      raw: 'client_id=writer&client_secret=writer-secret&grant_type=client_credentials',
      contentType: 'application/x-www-form-urlencoded',
    });
    expect(formSecret.status).toBe(401);
    expect((await tokenRequest(emu, 'writer', 'writer-secret')).status).toBe(200);
  });

  it('non-strict mode also takes client_secret in the form (as django-oauth-toolkit does)', async () => {
    const r = await call(emu, 'POST', '/v3.0/oauth2/token', {
      raw: 'client_id=writer&client_secret=writer-secret&grant_type=client_credentials',
      contentType: 'application/x-www-form-urlencoded',
    });
    expect(r.status).toBe(200);
    // the secret never reaches the request log
    expect(JSON.stringify(emu.requests())).not.toContain('writer-secret');
  });
});

describe('bearer tokens', () => {
  it('401 {"detail"} without, with an unknown, an expired or a revoked token', async () => {
    const none = await call(emu, 'GET', '/v3.0/pinpoints');
    expect(none.status).toBe(401);
    expect(none.body).toEqual({ detail: 'Authentication credentials were not provided.' });
    expect(none.headers.get('www-authenticate')).toMatch(/^Bearer/);

    const basicOnResource = await call(emu, 'GET', '/v3.0/pinpoints', {
      headers: { authorization: basic('writer', 'writer-secret') },
    });
    expect(basicOnResource.status).toBe(401);

    const unknown = await call(emu, 'GET', '/v3.0/pinpoints', { token: 'x'.repeat(30) });
    expect(unknown.status).toBe(401);
    expect(unknown.body).toEqual({ detail: 'Invalid token.' });

    emu.configure({ tokenTtl: 60 });
    const t = await getToken(emu);
    expect((await call(emu, 'GET', '/v3.0/pinpoints', { token: t })).status).toBe(200);
    emu.advanceClock(59_000);
    expect((await call(emu, 'GET', '/v3.0/pinpoints', { token: t })).status).toBe(200);
    emu.advanceClock(1_000);
    const expired = await call(emu, 'GET', '/v3.0/pinpoints', { token: t });
    expect(expired.status).toBe(401);
    expect(expired.body).toEqual({ detail: 'Token expired.' });
    // a new token works again
    expect((await call(emu, 'GET', '/v3.0/pinpoints', { token: await getToken(emu) })).status).toBe(
      200
    );
  });

  it('revokes all tokens, one token, or the tokens of one client', async () => {
    const [a, b, c] = [
      await getToken(emu),
      await getToken(emu),
      await getToken(emu, 'reader', 'reader-secret'),
    ];
    const ok = async (t: string) => (await call(emu, 'GET', '/v3.0/lists', { token: t })).status;

    expect(emu.revokeTokens(a)).toBe(1);
    expect(await ok(a)).toBe(401);
    expect((await call(emu, 'GET', '/v3.0/lists', { token: a })).body).toEqual({
      detail: 'Token revoked.',
    });
    expect(await ok(b)).toBe(200);

    expect(emu.revokeTokens({ clientId: 'reader' })).toBe(1);
    expect([await ok(b), await ok(c)]).toEqual([200, 401]);

    const d = await getToken(emu);
    expect(emu.revokeTokens()).toBe(2);
    expect([await ok(b), await ok(d)]).toEqual([401, 401]);
    expect(emu.state().activeTokens).toBe(0);
  });

  it('revokes over the control API too', async () => {
    const t = await getToken(emu);
    const r = await call(emu, 'POST', '/__emulator/tokens/revoke', { json: { token: t } });
    expect(r.body).toEqual({ revoked: 1 });
    expect((await call(emu, 'GET', '/v3.0/lists', { token: t })).status).toBe(401);
    const issued = await call(emu, 'POST', '/__emulator/tokens', { json: { clientId: 'reader' } });
    expect(issued.body.scope).toBe('read');
    expect(
      (await call(emu, 'GET', '/v3.0/lists', { token: issued.body.access_token })).status
    ).toBe(200);
  });

  it('issueToken() and advanceClock() work without HTTP', async () => {
    emu.configure({ tokenTtl: 10 });
    const t = emu.issueToken();
    expect(t).toMatchObject({ expires_in: 10, token_type: 'Bearer', scope: 'write read' });
    expect((await call(emu, 'GET', '/v3.0/lists', { token: t.access_token })).status).toBe(200);
    expect(emu.advanceClock(10_000)).toBeGreaterThanOrEqual(10_000);
    expect((await call(emu, 'GET', '/v3.0/lists', { token: t.access_token })).status).toBe(401);
  });

  it('reset() keeps tokens unless asked, reset({tokens:true}) drops them', async () => {
    const t = await getToken(emu);
    emu.reset();
    expect((await call(emu, 'GET', '/v3.0/lists', { token: t })).status).toBe(200);
    emu.reset({ tokens: true });
    expect((await call(emu, 'GET', '/v3.0/lists', { token: t })).status).toBe(401);
  });
});

describe('scopes', () => {
  it("a 'read' client reads (200) but every write is 403", async () => {
    const tokenRes = await tokenRequest(emu, 'reader', 'reader-secret');
    expect(tokenRes.body.scope).toBe('read');
    const reader = await api(emu, tokenRes.body.access_token);
    const writer = await api(emu);
    const pp = (await writer.post('/v3.0/pinpoints', { name: 'a', latitude: 1, longitude: 2 }))
      .body;
    const list = (await writer.post('/v3.0/lists', { name: 'l' })).body;

    expect((await reader.get('/v3.0/pinpoints')).status).toBe(200);
    expect((await reader.get(`/v3.0/pinpoints/${pp.id}`)).status).toBe(200);
    const forbidden = [
      await reader.post('/v3.0/pinpoints', { name: 'b', latitude: 1, longitude: 2 }),
      await reader.put(`/v3.0/pinpoints/${pp.id}`, { name: 'c' }),
      await reader.del(`/v3.0/pinpoints/${pp.id}`),
      await reader.post(`/v3.0/lists/${list.id}/pinpoints`, [{ id: pp.id }]),
      await reader.post('/v3.0/categories', { name: 'x' }),
    ];
    for (const r of forbidden) {
      expect(r.status).toBe(403);
      expect(r.body).toEqual({ detail: 'You do not have permission to perform this action.' });
    }
    expect(emu.state().pinpoints.map((p) => p.name)).toEqual(['a']);
  });

  it('clients can be added at run time', async () => {
    emu.addClient({ clientId: 'late', clientSecret: 'late-secret', scope: 'write read' });
    expect((await tokenRequest(emu, 'late', 'late-secret')).status).toBe(200);
    const r = await call(emu, 'POST', '/__emulator/clients', {
      json: { clientId: 'late2', clientSecret: 's2', scope: 'read' },
    });
    expect(r.status).toBe(201);
    expect((await tokenRequest(emu, 'late2', 's2')).body.scope).toBe('read');
  });
});
