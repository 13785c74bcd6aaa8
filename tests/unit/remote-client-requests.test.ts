// The client's requests: bodies and fields sent and read, delete, list membership and pagination.
import type { FakeReply } from './helpers/fake-fetch';
import { BASE, TOKEN, caught, client, pinpoint } from './helpers/remote-client';

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

  it('report a create answer without id as a retryable server error (like a lost answer)', async () => {
    const { remote } = client(() => ({ status: 201, json: { name: 'x' } }));
    const err = await caught(remote.pinpoints.create({ name: 'x' }));
    expect(err).toMatchObject({ code: 'server', retryable: true, status: 201, method: 'POST' });
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

  it('page reads one page, the first with the filter, and sends no further request', async () => {
    const { remote, apiCalls } = client(() => page([1], `${BASE}/next`));
    const p = await remote.events.page({ filter: { pinpoint: 3 } });
    expect(p).toMatchObject({ count: 5, next: `${BASE}/next`, previous: null });
    expect(apiCalls().map((c) => c.url.search)).toEqual(['?pinpoint=3']);
  });

  it('page reads the page at a next link as given, without the filter', async () => {
    const { remote, apiCalls } = client(() => page([2], null));
    const p = await remote.events.page({ link: `${BASE}/cursor/abc?token=zz` });
    expect(p.results.map((e) => e.id)).toEqual([2]);
    expect(apiCalls().map((c) => c.url.href)).toEqual([`${BASE}/cursor/abc?token=zz`]);
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
    const err = await caught(remote.pinpoints.page());
    expect(err.message).toMatch(/results array/);
  });
});
