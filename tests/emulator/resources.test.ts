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

const PINPOINT_KEYS = [
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
];
const EXTRA_KEYS = ['created', 'external_data', 'status', 'updated'];

describe('pinpoints', () => {
  it('POST 201, GET 200, list 200, PUT 200, DELETE 204, then 404', async () => {
    const created = await a.post(
      '/v3.0/pinpoints',
      place('Louvre', {
        description: '<p>Museum</p>',
        address: 'Paris',
        altitude: 35,
        tags: ['museum'],
        media_credits: 'me',
      })
    );
    expect(created.status).toBe(201);
    expect(Object.keys(created.body).sort()).toEqual([...PINPOINT_KEYS, ...EXTRA_KEYS].sort());
    expect(created.body).toMatchObject({
      id: expect.any(Number),
      name: 'Louvre',
      description: '<p>Museum</p>',
      address: 'Paris',
      latitude: 48.8566,
      longitude: 2.3522,
      category: null,
      tags: ['museum'],
      media_credits: 'me',
      media_url: null,
      status: 'published',
      external_data: {},
    });
    const id = created.body.id as number;
    expect(Date.parse(created.body.created)).not.toBeNaN();

    const got = await a.get(`/v3.0/pinpoints/${id}`);
    expect(got.status).toBe(200);
    expect(got.body).toEqual(created.body);

    const listed = await a.get('/v3.0/pinpoints');
    expect(listed.status).toBe(200);
    expect(listed.body).toMatchObject({
      count: 1,
      next: null,
      previous: null,
      results: [created.body],
    });

    const updated = await a.put(`/v3.0/pinpoints/${id}`, { name: 'Louvre museum' });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ id, name: 'Louvre museum', description: '<p>Museum</p>' });
    expect(emu.state().pinpoints[0]).toMatchObject({ altitude: 35, name: 'Louvre museum' });

    const deleted = await a.del(`/v3.0/pinpoints/${id}`);
    expect(deleted.status).toBe(204);
    expect(deleted.text).toBe('');
    for (const r of [
      await a.get(`/v3.0/pinpoints/${id}`),
      await a.del(`/v3.0/pinpoints/${id}`),
      await a.put(`/v3.0/pinpoints/${id}`, { name: 'x' }),
    ]) {
      expect(r.status).toBe(404);
      expect(r.body).toEqual({ detail: 'Not found.' });
    }
  });

  it('extra fields can be switched off; altitude is stored but not answered', async () => {
    emu.configure({ extraFields: false });
    const r = await a.post('/v3.0/pinpoints', place('p', { altitude: 12 }));
    expect(Object.keys(r.body).sort()).toEqual(PINPOINT_KEYS);
    expect(emu.state().pinpoints[0]!.altitude).toBe(12);
  });

  it('takes a category, and null clears it', async () => {
    const cat = (await a.post('/v3.0/categories', { name: 'Museums' })).body;
    const pp = (await a.post('/v3.0/pinpoints', place('p', { category: cat.id }))).body;
    expect(pp.category).toBe(cat.id);
    const cleared = await a.put(`/v3.0/pinpoints/${pp.id}`, { category: null });
    expect(cleared.body.category).toBeNull();
  });

  it('each resource has its own id range: a pinpoint id is not an event id', async () => {
    const pp = (await a.post('/v3.0/pinpoints', place('p'))).body;
    expect((await a.get(`/v3.0/events/${pp.id}`)).status).toBe(404);
    expect((await a.get(`/v3.0/lists/${pp.id}`)).status).toBe(404);
  });

  it('accepts a trailing slash, answers HEAD without a body', async () => {
    const pp = (await a.post('/v3.0/pinpoints/', place('p'))).body;
    expect((await a.get(`/v3.0/pinpoints/${pp.id}/`)).body.id).toBe(pp.id);
    const head = await a.call('HEAD', `/v3.0/pinpoints/${pp.id}`);
    expect(head.status).toBe(200);
    expect(head.text).toBe('');
  });
});

describe('PUT semantics', () => {
  const full = () =>
    place('Full', {
      description: '<p>d</p>',
      address: 'addr',
      altitude: 5,
      tags: ['t'],
      media_credits: 'c',
      media_file: media('img'),
    });

  it('merge (default) keeps omitted fields', async () => {
    expect(emu.config().putMode).toBe('merge');
    const pp = (await a.post('/v3.0/pinpoints', full())).body;
    const r = await a.put(`/v3.0/pinpoints/${pp.id}`, { name: 'Renamed' });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      name: 'Renamed',
      description: '<p>d</p>',
      address: 'addr',
      tags: ['t'],
      media_credits: 'c',
      media_url: pp.media_url,
    });
    expect(emu.state().pinpoints[0]!.altitude).toBe(5);
  });

  it('replace clears omitted optional fields and requires the required ones', async () => {
    emu.configure({ putMode: 'replace' });
    const pp = (await a.post('/v3.0/pinpoints', full())).body;
    const missing = await a.put(`/v3.0/pinpoints/${pp.id}`, { name: 'Renamed' });
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual({
      latitude: ['This field is required.'],
      longitude: ['This field is required.'],
    });

    const r = await a.put(`/v3.0/pinpoints/${pp.id}`, place('Renamed'));
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      name: 'Renamed',
      description: '',
      address: '',
      tags: [],
      media_credits: '',
      media_url: null,
      category: null,
    });
    expect(emu.state().pinpoints[0]!.altitude).toBeNull();
    expect(emu.state().media).toEqual([]);
    // the old media URL is gone
    expect((await call(emu, 'GET', pp.media_url)).status).toBe(404);
  });

  it('both modes for events, lists and categories', async () => {
    const pp = (await a.post('/v3.0/pinpoints', place('p'))).body;
    const ev = (
      await a.post('/v3.0/events', {
        name: 'E',
        description: 'd',
        pinpoint: pp.id,
        dates,
        tags: ['x'],
      })
    ).body;
    const list = (await a.post('/v3.0/lists', { name: 'L', description: 'ld' })).body;
    const cat = (await a.post('/v3.0/categories', { name: 'C', image_file: media('i') })).body;

    expect((await a.put(`/v3.0/events/${ev.id}`, { name: 'E2' })).body).toMatchObject({
      name: 'E2',
      description: 'd',
      tags: ['x'],
      dates,
    });
    expect((await a.put(`/v3.0/lists/${list.id}`, { name: 'L2' })).body).toEqual({
      id: list.id,
      name: 'L2',
      description: 'ld',
    });
    expect((await a.put(`/v3.0/categories/${cat.id}`, { name: 'C2' })).body).toEqual({
      id: cat.id,
      name: 'C2',
      image_url: cat.image_url,
    });

    emu.configure({ putMode: 'replace' });
    expect((await a.put(`/v3.0/events/${ev.id}`, { name: 'E3' })).body).toEqual({
      dates: ['This field is required.'],
      pinpoint: ['This field is required.'],
    });
    expect(
      (await a.put(`/v3.0/events/${ev.id}`, { name: 'E3', pinpoint: pp.id, dates })).body
    ).toMatchObject({ name: 'E3', description: '', tags: [] });
    expect((await a.put(`/v3.0/lists/${list.id}`, { name: 'L3' })).body).toEqual({
      id: list.id,
      name: 'L3',
      description: '',
    });
    expect((await a.put(`/v3.0/categories/${cat.id}`, { name: 'C3' })).body).toEqual({
      id: cat.id,
      name: 'C3',
      image_url: null,
    });
  });

  it('putMode can be switched over the control API', async () => {
    const r = await call(emu, 'PUT', '/__emulator/config', { json: { putMode: 'replace' } });
    expect(r.status).toBe(200);
    expect(r.body.putMode).toBe('replace');
    expect(emu.config().putMode).toBe('replace');
  });
});

describe('categories', () => {
  it('POST 201 {id, image_url, name}, GET, list, PUT; DELETE is 405', async () => {
    const created = await a.post('/v3.0/categories', {
      name: 'Museums',
      image_file: media('png bytes', 'icon.png'),
    });
    expect(created.status).toBe(201);
    expect(Object.keys(created.body).sort()).toEqual(['id', 'image_url', 'name']);
    expect(created.body.image_url).toMatch(new RegExp(`^${emu.baseUrl}/images/`));
    const id = created.body.id;
    expect((await a.get(`/v3.0/categories/${id}`)).body).toEqual(created.body);
    expect((await a.get('/v3.0/categories')).body.results).toEqual([created.body]);
    expect((await a.put(`/v3.0/categories/${id}`, { name: 'Museum' })).status).toBe(200);
    const del = await a.del(`/v3.0/categories/${id}`);
    expect(del.status).toBe(405);
    expect(del.body).toEqual({ detail: 'Method "DELETE" not allowed.' });
    expect(del.headers.get('allow')).toContain('GET');
    expect(emu.state().categories).toHaveLength(1);
  });
});

describe('events', () => {
  it('POST 201 with the listed fields, GET, PUT, DELETE 204, ?pinpoint= filter', async () => {
    const p1 = (await a.post('/v3.0/pinpoints', place('a'))).body;
    const p2 = (await a.post('/v3.0/pinpoints', place('b'))).body;
    const created = await a.post('/v3.0/events', {
      name: 'Concert',
      description: '<p>x</p>',
      pinpoint: p1.id,
      dates,
      tags: ['music'],
      media_credits: 'c',
    });
    expect(created.status).toBe(201);
    expect(Object.keys(created.body).sort()).toEqual([
      'dates',
      'description',
      'id',
      'media_credits',
      'media_url',
      'name',
      'tags',
    ]);
    expect(created.body.dates).toEqual(dates);
    await a.post('/v3.0/events', { name: 'Other', pinpoint: p2.id, dates });
    const id = created.body.id;
    expect((await a.get(`/v3.0/events/${id}`)).body).toEqual(created.body);

    const forP1 = await a.get(`/v3.0/events?pinpoint=${p1.id}`);
    expect(forP1.body.results.map((e: { name: string }) => e.name)).toEqual(['Concert']);
    expect((await a.get('/v3.0/events')).body.count).toBe(2);

    const moved = await a.put(`/v3.0/events/${id}`, { pinpoint: p2.id });
    expect(moved.status).toBe(200);
    expect(emu.state().events.find((e) => e.id === id)!.pinpoint).toBe(p2.id);

    expect((await a.del(`/v3.0/events/${id}`)).status).toBe(204);
    expect((await a.get(`/v3.0/events/${id}`)).status).toBe(404);
  });

  it('events go with their pinpoint when it is deleted', async () => {
    const pp = (await a.post('/v3.0/pinpoints', place('a'))).body;
    await a.post('/v3.0/events', { name: 'E', pinpoint: pp.id, dates });
    await a.del(`/v3.0/pinpoints/${pp.id}`);
    expect(emu.state().events).toEqual([]);
  });

  it('events stay, pointing at nothing, when pinpointDeleteTakesEvents is off', async () => {
    emu.configure({ pinpointDeleteTakesEvents: false });
    try {
      const pp = (await a.post('/v3.0/pinpoints', place('a'))).body;
      const ev = (await a.post('/v3.0/events', { name: 'E', pinpoint: pp.id, dates })).body;
      await a.del(`/v3.0/pinpoints/${pp.id}`);
      expect(emu.state().events.map((e) => [e.id, e.pinpoint])).toEqual([[ev.id, pp.id]]);
    } finally {
      emu.configure({ pinpointDeleteTakesEvents: true });
    }
  });

  it.each([
    ['ms-utc', '2018-02-16T20:00:00.000Z', '2018-02-16T22:00:00.500Z'],
    ['utc-offset', '2018-02-16T20:00:00+00:00', '2018-02-16T22:00:00.500000+00:00'],
    ['microseconds', '2018-02-16T20:00:00.000000Z', '2018-02-16T22:00:00.500000Z'],
    ['local-offset', '2018-02-16T22:00:00.000+02:00', '2018-02-17T00:00:00.500+02:00'],
    ['mixed', '2018-02-16T20:00:00.000Z', '2018-02-16T22:00:00.500000+00:00'],
  ] as const)('dateStyle %s renders the same instants as %s / %s', async (style, start, end) => {
    const pp = (await a.post('/v3.0/pinpoints', place('a'))).body;
    const sent = [{ start: '2018-02-16T20:00:00.000Z', end: '2018-02-16T22:00:00.500Z' }];
    const ev = (await a.post('/v3.0/events', { name: 'E', pinpoint: pp.id, dates: sent })).body;
    emu.configure({ dateStyle: style });
    const got = (await a.get(`/v3.0/events/${ev.id}`)).body.dates;
    expect(got).toEqual([{ start, end }]);
    expect(Date.parse(got[0].start)).toBe(Date.parse(sent[0]!.start));
    expect(Date.parse(got[0].end)).toBe(Date.parse(sent[0]!.end));
    expect(emu.state().events[0]!.dates).toEqual(sent);
  });
});

describe('lists and membership', () => {
  it('POST 201, GET, list, PUT, membership 200 {errors,total}, ?list= filter, DELETE 204', async () => {
    const created = await a.post('/v3.0/lists', { name: 'Tour', description: '<p>d</p>' });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({ id: expect.any(Number), name: 'Tour', description: '<p>d</p>' });
    const id = created.body.id;
    expect((await a.get(`/v3.0/lists/${id}`)).body).toEqual(created.body);
    expect((await a.get('/v3.0/lists')).body.results).toEqual([created.body]);
    expect((await a.put(`/v3.0/lists/${id}`, { name: 'Tour 2' })).body.name).toBe('Tour 2');

    const pps: { id: number }[] = [];
    for (const n of ['a', 'b', 'c']) pps.push((await a.post('/v3.0/pinpoints', place(n))).body);
    const add = await a.post(
      `/v3.0/lists/${id}/pinpoints`,
      pps.map((p) => ({ id: p.id }))
    );
    expect(add.status).toBe(200);
    expect(add.body).toEqual({ errors: [], total: 3 });
    // adding again is harmless
    expect((await a.post(`/v3.0/lists/${id}/pinpoints`, [{ id: pps[0]!.id }])).body).toEqual({
      errors: [],
      total: 3,
    });

    const inList = await a.get(`/v3.0/pinpoints?list=${id}`);
    expect(inList.body.results.map((p: { id: number }) => p.id)).toEqual(pps.map((p) => p.id));

    const remove = await a.del(`/v3.0/lists/${id}/pinpoints`, [{ id: pps[1]!.id }]);
    expect(remove.status).toBe(200);
    expect(remove.body).toEqual({ errors: [], total: 2 });
    expect(emu.state().lists[0]!.members).toEqual([pps[0]!.id, pps[2]!.id]);
    expect(emu.state().pinpoints.find((p) => p.id === pps[0]!.id)!.lists).toEqual([id]);

    const del = await a.del(`/v3.0/lists/${id}`);
    expect(del.status).toBe(204);
    expect(del.text).toBe('');
    expect(emu.state().lists).toEqual([]);
    expect(emu.state().pinpoints).toHaveLength(3); // pinpoints stay
  });

  it('an unknown pinpoint id goes into errors, the others are applied (200)', async () => {
    const list = (await a.post('/v3.0/lists', { name: 'L' })).body;
    const pp = (await a.post('/v3.0/pinpoints', place('a'))).body;
    const r = await a.post(`/v3.0/lists/${list.id}/pinpoints`, [{ id: 999 }, { id: pp.id }]);
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ errors: [{ id: 999, detail: 'Not found.' }], total: 1 });
    const d = await a.del(`/v3.0/lists/${list.id}/pinpoints`, [{ id: 998 }]);
    expect(d.status).toBe(200);
    expect(d.body.errors).toHaveLength(1);
    expect(emu.state().lists[0]!.members).toEqual([pp.id]);
  });

  it('membership of an unknown list is 404; GET on the membership path is 405', async () => {
    expect((await a.post('/v3.0/lists/4999999/pinpoints', [])).status).toBe(404);
    const list = (await a.post('/v3.0/lists', { name: 'L' })).body;
    expect((await a.get(`/v3.0/lists/${list.id}/pinpoints`)).status).toBe(405);
  });

  it('deleting a pinpoint removes it from its lists', async () => {
    const list = (await a.post('/v3.0/lists', { name: 'L' })).body;
    const pp = (await a.post('/v3.0/pinpoints', place('a'))).body;
    await a.post(`/v3.0/lists/${list.id}/pinpoints`, [{ id: pp.id }]);
    await a.del(`/v3.0/pinpoints/${pp.id}`);
    expect(emu.state().lists[0]!.members).toEqual([]);
  });
});

describe('media', () => {
  const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 1, 2, 3, 255]);
  const file = { content: png.toString('base64'), name: 'photo 1.png', type: 'image/png' };

  it('stores media_file and serves it back at media_url, without auth, with the right type and bytes', async () => {
    const pp = (await a.post('/v3.0/pinpoints', place('a', { media_file: file }))).body;
    expect(pp.media_url).toMatch(
      new RegExp(`^${emu.baseUrl}/images/pps-picpoints/\\d+-photo_1\\.png$`)
    );
    const res = await fetch(pp.media_url);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await res.arrayBuffer())).toEqual(png);
    expect(emu.state().media).toEqual([
      expect.objectContaining({
        url: pp.media_url,
        name: 'photo 1.png',
        type: 'image/png',
        size: png.length,
        owner: { kind: 'pinpoint', id: pp.id },
      }),
    ]);
  });

  it('events and categories too; a new file replaces the old URL; delete drops it', async () => {
    const pp = (await a.post('/v3.0/pinpoints', place('a'))).body;
    const ev = (
      await a.post('/v3.0/events', {
        name: 'E',
        pinpoint: pp.id,
        dates,
        media_file: media('<svg/>', 'e.svg', 'image/svg+xml'),
      })
    ).body;
    const cat = (await a.post('/v3.0/categories', { name: 'C', image_file: file })).body;
    const evMedia = await fetch(ev.media_url);
    expect(evMedia.headers.get('content-type')).toBe('image/svg+xml');
    expect(await evMedia.text()).toBe('<svg/>');
    expect(Buffer.from(await (await fetch(cat.image_url)).arrayBuffer())).toEqual(png);

    const replaced = (
      await a.put(`/v3.0/events/${ev.id}`, { media_file: media('new', 'n.txt', 'text/plain') })
    ).body;
    expect(replaced.media_url).not.toBe(ev.media_url);
    expect((await fetch(ev.media_url)).status).toBe(404);
    expect(await (await fetch(replaced.media_url)).text()).toBe('new');

    await a.del(`/v3.0/events/${ev.id}`);
    expect((await fetch(replaced.media_url)).status).toBe(404);
    expect((await fetch(`${emu.baseUrl}/images/pps-picpoints/999-nothing.png`)).status).toBe(404);
  });

  it('answers HEAD and conditional GET', async () => {
    const pp = (await a.post('/v3.0/pinpoints', place('a', { media_file: file }))).body;
    const head = await fetch(pp.media_url, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-length')).toBe(String(png.length));
    const etag = head.headers.get('etag')!;
    expect((await fetch(pp.media_url, { headers: { 'if-none-match': etag } })).status).toBe(304);
    expect((await fetch(pp.media_url, { method: 'POST' })).status).toBe(405);
  });
});

describe('create() without HTTP', () => {
  it('validates like the API and returns the response body', () => {
    const pp = emu.create('pinpoints', place('direct'));
    expect(pp).toMatchObject({ id: expect.any(Number), name: 'direct' });
    expect(() => emu.create('pinpoints', { name: 'x' })).toThrow(
      expect.objectContaining({ status: 400 })
    );
    expect(emu.requests()).toEqual([]);
  });

  it('over the control API too', async () => {
    const r = await call(emu, 'POST', '/__emulator/create/lists', { json: { name: 'L' } });
    expect(r.status).toBe(201);
    expect(emu.state().lists.map((l) => l.name)).toEqual(['L']);
  });
});
