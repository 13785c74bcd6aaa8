import { startEmulator, type EmulatorHandle } from '../../emulator/src';
import { api, dates, place, type Api, type Res } from './helpers';

let emu: EmulatorHandle;
let a: Api;

beforeAll(async () => {
  emu = await startEmulator({ strict: true });
  a = await api(emu);
});
afterEach(() => emu.reset());
afterAll(() => emu.stop());

const seedPinpoints = (n: number): number[] =>
  Array.from({ length: n }, (_, i) => emu.create('pinpoints', place(`p${i}`)).id as number);

/** Follow `next` only, from a first URL; returns the pages. */
async function walk(first: string, max = 100): Promise<Res[]> {
  const pages: Res[] = [];
  let url: string | null = first;
  while (url) {
    const r = await a.get(url);
    expect(r.status).toBe(200);
    pages.push(r);
    url = r.body.next;
    if (pages.length > max) throw new Error('pagination does not end');
  }
  return pages;
}

const ids = (pages: Res[]): number[] =>
  pages.flatMap((p) => p.body.results.map((r: { id: number }) => r.id));

describe('pagination', () => {
  it('an empty collection', async () => {
    expect((await a.get('/v3.0/categories')).body).toEqual({
      count: 0,
      next: null,
      previous: null,
      results: [],
    });
  });

  it('walks 45 pinpoints by following next only: pages of 20, ascending ids, count on every page', async () => {
    const created = seedPinpoints(45);
    const pages = await walk('/v3.0/pinpoints');
    expect(pages.map((p) => p.body.results.length)).toEqual([20, 20, 5]);
    expect(pages.map((p) => p.body.count)).toEqual([45, 45, 45]);
    expect(ids(pages)).toEqual(created);
    expect(pages[0]!.body.previous).toBeNull();
    expect(pages[2]!.body.next).toBeNull();
    // next/previous are absolute and opaque
    for (const link of [pages[0]!.body.next, pages[1]!.body.previous, pages[2]!.body.previous]) {
      expect(link).toMatch(new RegExp(`^${emu.baseUrl}/v3\\.0/pinpoints\\?cursor=[A-Za-z0-9_-]+$`));
      expect(link).not.toMatch(/offset|page=|limit/);
    }
  });

  it("pages with limit/offset in the links when configured so (the real service's form), and a delete mid-walk shifts the rest", async () => {
    emu.configure({ pagination: 'offset' });
    const created = seedPinpoints(45);
    const pages = await walk('/v3.0/pinpoints');
    expect(ids(pages)).toEqual(created);
    expect(pages.map((p) => p.body.next)).toEqual([
      `${emu.baseUrl}/v3.0/pinpoints?limit=20&offset=20`,
      `${emu.baseUrl}/v3.0/pinpoints?limit=20&offset=40`,
      null,
    ]);
    expect(pages[1]!.body.previous).toBe(`${emu.baseUrl}/v3.0/pinpoints?limit=20`);
    // Filters stay in the links.
    const pp = created[0]!;
    for (let i = 0; i < 3; i++)
      await a.post('/v3.0/events', { name: `E${i}`, pinpoint: pp, dates });
    const first = (await a.get(`/v3.0/events?pinpoint=${pp}&limit=2`)).body;
    expect(first.next).toBe(`${emu.baseUrl}/v3.0/events?pinpoint=${pp}&limit=2&offset=2`);
    // A delete between two pages moves the first object of the next page onto the page already read.
    const one = await a.get('/v3.0/pinpoints');
    await a.del(`/v3.0/pinpoints/${created[0]}`);
    const two = await a.get(one.body.next);
    expect(two.body.results[0].id).toBe(created[21]);
    expect(
      [...one.body.results, ...two.body.results].map((r: { id: number }) => r.id)
    ).not.toContain(created[20]);
    expect((await a.get('/v3.0/pinpoints?limit=0')).status).toBe(400);
  });

  it('previous walks back to the same pages', async () => {
    seedPinpoints(45);
    const forward = await walk('/v3.0/pinpoints');
    const back: number[][] = [];
    let url: string | null = forward[2]!.body.previous;
    while (url) {
      const r = await a.get(url);
      back.unshift(r.body.results.map((x: { id: number }) => x.id));
      url = r.body.previous;
    }
    expect(back).toEqual(
      forward.slice(0, 2).map((p) => p.body.results.map((x: { id: number }) => x.id))
    );
  });

  it('a client that builds page URLs itself gets a 4xx', async () => {
    seedPinpoints(25);
    for (const q of ['offset=20', 'limit=20&offset=20', 'page=2', 'page_size=50']) {
      const r = await a.get(`/v3.0/pinpoints?${q}`);
      expect(r.status).toBe(400);
      expect(r.body.detail).toMatch(/follow the "next" and "previous" URLs/);
    }
    const next: string = (await a.get('/v3.0/pinpoints')).body.next;
    const cursor = new URL(next).searchParams.get('cursor')!;
    // a decoded, edited and re-encoded cursor is refused
    const decoded = JSON.parse(Buffer.from(cursor, 'base64url').toString());
    const forged = Buffer.from(JSON.stringify({ ...decoded, k: 0 })).toString('base64url');
    for (const c of [forged, 'abc', `${cursor}x`]) {
      const r = await a.get(`/v3.0/pinpoints?cursor=${c}`);
      expect(r.status).toBe(404);
      expect(r.body).toEqual({ detail: 'Invalid cursor' });
    }
    // nor does a cursor work on another resource
    expect((await a.get(`/v3.0/events?cursor=${cursor}`)).status).toBe(404);
    // adding offset to a returned URL breaks too
    expect((await a.get(`${next}&offset=40`)).status).toBe(400);
  });

  it('the list filter survives into the cursor', async () => {
    const all = seedPinpoints(60);
    const list = (await a.post('/v3.0/lists', { name: 'odd' })).body;
    const members = all.filter((_, i) => i % 2 === 1); // 30 pinpoints
    await a.post(
      `/v3.0/lists/${list.id}/pinpoints`,
      members.map((id) => ({ id }))
    );
    const pages = await walk(`/v3.0/pinpoints?list=${list.id}`);
    expect(pages.map((p) => p.body.results.length)).toEqual([20, 10]);
    expect(pages[1]!.body.count).toBe(30);
    expect(ids(pages)).toEqual(members);
    expect(pages[0]!.body.next).not.toContain('list=');
  });

  it('the pinpoint filter of events survives into the cursor', async () => {
    const [p1, p2] = seedPinpoints(2);
    for (let i = 0; i < 25; i++)
      emu.create('events', { name: `e${i}`, pinpoint: i % 5 === 0 ? p2 : p1, dates });
    const pages = await walk(`/v3.0/events?pinpoint=${p1}`);
    expect(pages.map((p) => p.body.results.length)).toEqual([20]);
    const p2pages = await walk(`/v3.0/events?pinpoint=${p2}`);
    expect(ids(p2pages)).toHaveLength(5);
    expect(emu.state().events.filter((e) => e.pinpoint === p1)).toHaveLength(20);
  });

  it('an unknown or malformed filter value is 400', async () => {
    expect((await a.get('/v3.0/pinpoints?list=4999999')).body).toEqual({
      list: ['Select a valid choice. That choice is not one of the available choices.'],
    });
    expect((await a.get('/v3.0/events?pinpoint=abc')).status).toBe(400);
  });

  it('objects created or deleted mid-walk neither repeat nor hide the others', async () => {
    const first = seedPinpoints(30);
    const page1 = await a.get('/v3.0/pinpoints');
    await a.del(`/v3.0/pinpoints/${first[0]}`); // on a page already read
    await a.del(`/v3.0/pinpoints/${first[25]}`); // on a page not yet read
    const added = seedPinpoints(3);
    const rest = await walk(page1.body.next);
    const seen = [...ids([page1]), ...ids(rest)];
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen).toEqual([...first.filter((id) => id !== first[25]), ...added]);
  });

  it('pageSize is configurable at start and at run time (cursors keep the size they were made with)', async () => {
    seedPinpoints(10);
    emu.configure({ pageSize: 3 });
    const first = await a.get('/v3.0/pinpoints');
    expect(first.body.results).toHaveLength(3);
    emu.configure({ pageSize: 5 });
    const pages = await walk(first.body.next);
    expect(pages.map((p) => p.body.results.length)).toEqual([3, 3, 1]);
    const other = await startEmulator({ pageSize: 4 });
    try {
      other.create('lists', { name: 'a' });
      for (let i = 0; i < 5; i++) other.create('lists', { name: `l${i}` });
      const o = await api(other);
      const r = await o.get('/v3.0/lists');
      expect([r.body.count, r.body.results.length]).toEqual([6, 4]);
    } finally {
      await other.stop();
    }
  });
});
