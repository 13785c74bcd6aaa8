import { connect } from 'node:net';
import { startEmulator, type EmulatorHandle } from '../../emulator/src';
import { api, call, dates, media, place, type Api } from './helpers';

let emu: EmulatorHandle;
let a: Api;

beforeAll(async () => {
  emu = await startEmulator({ strict: true });
  a = await api(emu);
});
afterEach(() => emu.reset());
afterAll(() => emu.stop());

const REQ = ['This field is required.'];

describe('required fields (400, DRF field-keyed body)', () => {
  it.each([
    ['pinpoints', { name: REQ, latitude: REQ, longitude: REQ }],
    ['events', { name: REQ, pinpoint: REQ, dates: REQ }],
    ['lists', { name: REQ }],
    ['categories', { name: REQ }],
  ])('POST /v3.0/%s with {} -> 400', async (kind, body) => {
    const r = await a.post(`/v3.0/${kind}`, {});
    expect(r.status).toBe(400);
    expect(r.body).toEqual(body);
  });

  it('an empty body counts as {} (no crash, 400)', async () => {
    const r = await a.call('POST', '/v3.0/lists');
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ name: REQ });
  });

  it('null and blank required fields', async () => {
    const r = await a.post('/v3.0/pinpoints', { name: '  ', latitude: null, longitude: 2 });
    expect(r.body).toEqual({
      name: ['This field may not be blank.'],
      latitude: ['This field may not be null.'],
    });
  });
});

describe('types and ranges', () => {
  it('wrong types', async () => {
    const r = await a.post('/v3.0/pinpoints', {
      name: 5,
      latitude: '48.8',
      longitude: true,
      tags: 'a',
      category: '3',
      description: {},
    });
    expect(r.status).toBe(400);
    expect(r.body).toEqual({
      name: ['Not a valid string.'],
      latitude: ['A valid number is required.'],
      longitude: ['A valid number is required.'],
      tags: ['Expected a list of items but got type "str".'],
      category: ['Incorrect type. Expected pk value, received str.'],
      description: ['Not a valid string.'],
    });
    const tags = await a.post('/v3.0/pinpoints', place('p', { tags: ['ok', 3, ''] }));
    expect(tags.body).toEqual({
      tags: ['Item 1: Not a valid string.', 'Item 2: This field may not be blank.'],
    });
  });

  it('latitude/longitude out of range or not finite, huge numbers', async () => {
    expect(
      (await a.post('/v3.0/pinpoints', place('p', { latitude: 90.0001, longitude: -180.5 }))).body
    ).toEqual({
      latitude: ['Ensure this value is less than or equal to 90.'],
      longitude: ['Ensure this value is greater than or equal to -180.'],
    });
    // 1e999 is valid JSON that parses to Infinity
    const inf = await a.post('/v3.0/pinpoints', undefined, {
      raw: '{"name":"p","latitude":1e999,"longitude":-1e999,"altitude":1e308}',
      contentType: 'application/json',
    });
    expect(inf.status).toBe(400);
    expect(inf.body).toEqual({
      latitude: ['A valid number is required.'],
      longitude: ['A valid number is required.'],
      altitude: ['Ensure this value is less than or equal to 1000000.'],
    });
    const bigId = await a.post('/v3.0/pinpoints', place('p', { category: 1e20 }));
    expect(bigId.body).toEqual({
      category: ['Invalid pk "100000000000000000000" - object does not exist.'],
    });
    const floatId = await a.post('/v3.0/pinpoints', place('p', { category: 1.5 }));
    expect(floatId.body).toEqual({
      category: ['Incorrect type. Expected pk value, received float.'],
    });
    const bigMember = await a
      .post('/v3.0/lists', { name: 'l' })
      .then((l) => a.post(`/v3.0/lists/${l.body.id}/pinpoints`, [{ id: 1e20 }]));
    expect(bigMember.status).toBe(400);
  });

  it('a category or pinpoint that does not exist', async () => {
    expect((await a.post('/v3.0/pinpoints', place('p', { category: 3999999 }))).body).toEqual({
      category: ['Invalid pk "3999999" - object does not exist.'],
    });
    expect((await a.post('/v3.0/events', { name: 'e', pinpoint: 1999999, dates })).body).toEqual({
      pinpoint: ['Invalid pk "1999999" - object does not exist.'],
    });
  });
});

describe('dates', () => {
  let pinpoint: number;
  beforeEach(async () => {
    pinpoint = (await a.post('/v3.0/pinpoints', place('p'))).body.id;
  });
  const ev = (d: unknown) => a.post('/v3.0/events', { name: 'e', pinpoint, dates: d });

  it('rejects what is not ISO 8601 with a time zone, and end before start', async () => {
    for (const bad of [
      'tomorrow',
      '2018-02-16',
      '2018-02-30T20:00:00.000Z',
      '2018-02-16T25:00:00.000Z',
      '2018-02-16T20:00:00',
      1518811200000,
    ]) {
      const r = await ev([{ start: bad, end: '2018-02-16T22:00:00.000Z' }]);
      expect(r.status).toBe(400);
      expect(r.body.dates[0]).toMatch(/^Item 0: start: /);
    }
    const reversed = await ev([
      { start: '2018-02-16T22:00:00.000Z', end: '2018-02-16T20:00:00.000Z' },
    ]);
    expect(reversed.body).toEqual({ dates: ['Item 0: end must not be before start.'] });
    expect((await ev([])).body).toEqual({ dates: ['This list may not be empty.'] });
    expect((await ev({ start: 'x' })).body).toEqual({
      dates: ['Expected a list of items but got type "dict".'],
    });
    expect((await ev([{ start: '2018-02-16T22:00:00.000Z' }])).body).toEqual({
      dates: ['Item 0: end: This field is required.'],
    });
  });

  it('strict mode wants the ms-UTC form; non-strict takes any ISO 8601 with a zone', async () => {
    const offset = [
      { start: '2018-02-16T22:00:00+02:00', end: '2018-02-16T23:00:00.123456+02:00' },
    ];
    const strict = await ev(offset);
    expect(strict.status).toBe(400);
    expect(strict.body.dates[0]).toMatch(/ISO 8601 UTC form with milliseconds/);
    emu.configure({ strict: false });
    const loose = await ev(offset);
    expect(loose.status).toBe(201);
    expect(loose.body.dates).toEqual([
      { start: '2018-02-16T20:00:00.000Z', end: '2018-02-16T21:00:00.123Z' },
    ]);
    const equal = await ev([
      { start: '2018-02-16T20:00:00.000Z', end: '2018-02-16T20:00:00.000Z' },
    ]);
    expect(equal.status).toBe(201);
  });
});

describe('media files', () => {
  it('base64 that does not decode, a data: URI, no type, not a media type', async () => {
    const r = await a.post(
      '/v3.0/pinpoints',
      place('p', { media_file: { content: 'not base64!', name: 'a.png', type: 'png' } })
    );
    expect(r.status).toBe(400);
    expect(r.body).toEqual({
      media_file: {
        content: [expect.stringMatching(/^Invalid base64/)],
        type: ['"png" is not a media type (expected e.g. image/png).'],
      },
    });
    const dataUri = await a.post(
      '/v3.0/pinpoints',
      place('p', {
        media_file: { content: 'data:image/png;base64,aGVsbG8=', name: 'a.png', type: 'image/png' },
      })
    );
    expect(dataUri.body.media_file.content[0]).toMatch(/^Invalid base64/);
    const missing = await a.post(
      '/v3.0/pinpoints',
      place('p', { media_file: { content: 'aGVsbG8=' } })
    );
    expect(missing.body).toEqual({ media_file: { name: REQ, type: REQ } });
    const notObject = await a.post('/v3.0/pinpoints', place('p', { media_file: 'aGVsbG8=' }));
    expect(notObject.body).toEqual({
      media_file: ['Invalid data. Expected a dictionary, but got str.'],
    });
    const empty = await a.post(
      '/v3.0/pinpoints',
      place('p', { media_file: { content: '', name: 'a', type: 'image/png' } })
    );
    expect(empty.body).toEqual({ media_file: { content: ['This field may not be blank.'] } });
  });

  it('a category image must be an image', async () => {
    const r = await a.post('/v3.0/categories', {
      name: 'c',
      image_file: media('x', 'a.pdf', 'application/pdf'),
    });
    expect(r.status).toBe(400);
    expect(Object.keys(r.body.image_file)).toEqual(['type']);
  });

  it('larger than maxMediaBytes -> 400; exactly the limit is fine; base64 with line breaks is fine', async () => {
    emu.configure({ maxMediaBytes: 1000 });
    const big = await a.post(
      '/v3.0/pinpoints',
      place('p', {
        media_file: {
          content: Buffer.alloc(1001, 7).toString('base64'),
          name: 'a.bin',
          type: 'application/octet-stream',
        },
      })
    );
    expect(big.status).toBe(400);
    expect(big.body).toEqual({
      media_file: { content: ['File too large: 1001 bytes; at most 1000 bytes.'] },
    });
    const mime = Buffer.alloc(1000, 7)
      .toString('base64')
      .replace(/(.{76})/g, '$1\r\n');
    const ok = await a.post(
      '/v3.0/pinpoints',
      place('p', { media_file: { content: mime, name: 'a.bin', type: 'application/octet-stream' } })
    );
    expect(ok.status).toBe(201);
    expect(emu.state().media[0]!.size).toBe(1000);
  });

  it('a request body above the body limit is 413, and the connection still answers', async () => {
    const small = await startEmulator({ maxBodyBytes: 10_000 });
    try {
      const s = await api(small);
      const r = await s.post('/v3.0/lists', { name: 'x'.repeat(20_000) });
      expect(r.status).toBe(413);
      expect(r.body.detail).toMatch(/^Request body too large/);
      expect((await s.post('/v3.0/lists', { name: 'ok' })).status).toBe(201);
    } finally {
      await small.stop();
    }
  });
});

describe('strict mode', () => {
  it('rejects fields the contract does not list for the request', async () => {
    const r = await a.post(
      '/v3.0/pinpoints',
      place('p', { id: 5, media_url: 'http://x', external_data: {}, slug: 'p' })
    );
    expect(r.status).toBe(400);
    expect(r.body).toEqual({
      id: ['Unknown field.'],
      media_url: ['Unknown field.'],
      external_data: ['Unknown field.'],
      slug: ['Unknown field.'],
    });
    const ev = await a.post('/v3.0/lists', { name: 'l', pinpoints: [] });
    expect(ev.body).toEqual({ pinpoints: ['Unknown field.'] });
    const nested = await a.post(
      '/v3.0/pinpoints',
      place('p', { media_file: { ...media('x'), size: 1 } })
    );
    expect(nested.body).toEqual({ media_file: { size: ['Unknown field.'] } });
    const item = await a
      .post('/v3.0/lists', { name: 'l' })
      .then((l) => a.post(`/v3.0/lists/${l.body.id}/pinpoints`, [{ id: 1, name: 'x' }]));
    expect(item.status).toBe(400);
    expect(item.body.non_field_errors[0]).toMatch(/name: Unknown field\./);
  });

  it('rejects query parameters the contract does not list', async () => {
    const r = await a.get('/v3.0/pinpoints?ordering=-id');
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ ordering: ['Unknown query parameter.'] });
    expect((await a.get('/v3.0/events?list=1')).status).toBe(400);
  });

  it('non-strict mode ignores unknown fields and does not store them', async () => {
    emu.configure({ strict: false });
    const r = await a.post(
      '/v3.0/pinpoints',
      place('p', { id: 5, slug: 'p', media_url: 'http://x' })
    );
    expect(r.status).toBe(201);
    expect(r.body.id).not.toBe(5);
    expect(r.body.media_url).toBeNull();
    expect(r.body).not.toHaveProperty('slug');
    expect((await a.get('/v3.0/pinpoints?ordering=-id')).status).toBe(200);
  });

  it('strings are trimmed, as DRF does', async () => {
    const r = await a.post('/v3.0/lists', { name: '  Tour  ', description: '\n<p>x</p>\n' });
    expect(r.body).toMatchObject({ name: 'Tour', description: '<p>x</p>' });
  });
});

describe('bad input never crashes the emulator', () => {
  it('a body that is not JSON -> 400; JSON without application/json -> 415', async () => {
    const notJson = await a.post('/v3.0/pinpoints', undefined, {
      raw: '{"name": ',
      contentType: 'application/json',
    });
    expect(notJson.status).toBe(400);
    expect(notJson.body.detail).toMatch(/^JSON parse error - /);
    const noType = await a.post('/v3.0/pinpoints', undefined, { raw: JSON.stringify(place('p')) });
    expect(noType.status).toBe(415);
    expect(noType.body.detail).toMatch(/^Unsupported media type/);
    const text = await a.post('/v3.0/pinpoints', undefined, {
      raw: JSON.stringify(place('p')),
      contentType: 'text/plain',
    });
    expect(text.status).toBe(415);
    const charset = await a.post('/v3.0/pinpoints', undefined, {
      raw: JSON.stringify(place('p')),
      contentType: 'application/json; charset=utf-8',
    });
    expect(charset.status).toBe(201);
  });

  it('JSON of the wrong shape', async () => {
    for (const [raw, got] of [
      ['[]', 'list'],
      ['null', 'NoneType'],
      ['"x"', 'str'],
      ['42', 'int'],
    ]) {
      const r = await a.post('/v3.0/pinpoints', undefined, {
        raw,
        contentType: 'application/json',
      });
      expect(r.status).toBe(400);
      expect(r.body).toEqual({
        non_field_errors: [`Invalid data. Expected a dictionary, but got ${got}.`],
      });
    }
    const list = (await a.post('/v3.0/lists', { name: 'l' })).body;
    const m1 = await a.post(`/v3.0/lists/${list.id}/pinpoints`, { id: 1 });
    expect(m1.status).toBe(400);
    expect(m1.body).toEqual({
      non_field_errors: ['Expected a list of items but got type "dict".'],
    });
    const m2 = await a.post(`/v3.0/lists/${list.id}/pinpoints`, [{}, { id: 'x' }, 3]);
    expect(m2.status).toBe(400);
    expect(m2.body.non_field_errors).toHaveLength(3);
  });

  it('deeply nested JSON', async () => {
    const deep = '['.repeat(50_000) + ']'.repeat(50_000);
    const r = await a.post('/v3.0/pinpoints', undefined, {
      raw: deep,
      contentType: 'application/json',
    });
    expect(r.status).toBe(400);
  });

  it('unknown routes and malformed ids -> 404 JSON; PATCH -> 405', async () => {
    for (const path of [
      '/',
      '/v3.0',
      '/v3.0/foo',
      '/v2.0/pinpoints',
      '/v3.0/pinpoints/abc',
      '/v3.0/pinpoints/-1',
      '/v3.0/pinpoints/99999999999999999999',
      '/v3.0/pinpoints/1/events',
      '/v3.0/events/1/pinpoints',
      '/images/',
    ]) {
      const r = await a.get(path);
      expect([path, r.status, r.body]).toEqual([path, 404, { detail: 'Not found.' }]);
    }
    const patch = await a.call('PATCH', '/v3.0/pinpoints/1000001', { json: { name: 'x' } });
    expect(patch.status).toBe(405);
    expect(patch.body).toEqual({ detail: 'Method "PATCH" not allowed.' });
    expect((await a.post('/v3.0/pinpoints/1000001', {})).status).toBe(405);
    expect((await a.call('PUT', '/v3.0/pinpoints', { json: {} })).status).toBe(405);
  });

  it('a malformed HTTP request gets 400 and the server keeps serving', async () => {
    const port = emu.port;
    const answer = await new Promise<string>((resolve, reject) => {
      const sock = connect(port, '127.0.0.1', () => sock.write('BLAH /\x00 NOT-HTTP\r\n\r\n'));
      let data = '';
      sock.on('data', (d) => (data += d.toString()));
      sock.on('end', () => resolve(data));
      sock.on('error', reject);
    });
    expect(answer).toMatch(/^HTTP\/1\.1 400/);
    expect((await a.get('/v3.0/lists')).status).toBe(200);
  });

  it('after all of that: no 500 in the stats', async () => {
    // (the request log was reset after each test; run a mixed batch again and check)
    await a.post('/v3.0/pinpoints', undefined, { raw: '{', contentType: 'application/json' });
    await a.get('/v3.0/nothing');
    await call(emu, 'GET', '/v3.0/pinpoints');
    const stats = emu.stats();
    expect(stats.total).toBe(3);
    expect(Object.keys(stats.byStatus).sort()).toEqual(['400', '401', '404']);
  });
});
