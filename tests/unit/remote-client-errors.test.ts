// The client's failures: error classification, secrets kept out of errors and logs, hooks, options.
import { createRemoteClient } from '../../server/src/remote';
import { never, recordingLogger } from './helpers/fake-fetch';
import { BASE, SECRET, TOKEN, caught, client, pinpoint } from './helpers/remote-client';

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

  it('a 2xx that is not JSON is a retryable server error, for a POST too (like a lost answer)', async () => {
    const { remote } = client(() => ({ status: 200, text: '<html>maintenance</html>' }));
    expect(await caught(remote.pinpoints.get(1))).toMatchObject({
      code: 'server',
      retryable: true,
    });
    expect(await caught(remote.pinpoints.create({ name: 'x' }))).toMatchObject({
      code: 'server',
      retryable: true,
      status: 200,
      method: 'POST',
    });
  });

  it('times out with AbortController', async () => {
    const { remote } = client((call) => never(call), { timeoutMs: 50 });
    const started = Date.now();
    const err = await caught(remote.pinpoints.get(1));
    // Its own 50 ms, not the helper's 30 s: far from either, whatever the load.
    expect(Date.now() - started).toBeLessThan(15_000);
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
    let calls = 0;
    const { remote } = client(
      // A 401 first, so that the client logs the renewal of the token.
      (call) => ({
        status: ++calls === 1 ? 401 : 400,
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
    let calls = 0;
    // A 401 first: the client logs the renewal of the token.
    const { remote } = client(
      () => (++calls === 1 ? { status: 401, json: {} } : { json: pinpoint(1) }),
      { logger: { info: boom } }
    );
    await expect(remote.pinpoints.get(1)).resolves.toMatchObject({ id: 1 });
  });
});

describe('options', () => {
  it.each([
    [{ baseUrl: 'not a url' }, /Invalid base URL/],
    [{ baseUrl: 'ftp://x.test' }, /expected http or https/],
    [{ baseUrl: 'https://u:p@x.test' }, /must not carry credentials/],
    [{ clientId: '' }, /clientId is required/],
    [{ clientSecret: '' }, /clientSecret is required/],
  ])('rejects %j', (override, message) => {
    expect(() =>
      createRemoteClient({
        baseUrl: BASE,
        clientId: 'c',
        clientSecret: 's',
        timeoutMs: 30_000,
        ...override,
      })
    ).toThrow(message);
  });
});
