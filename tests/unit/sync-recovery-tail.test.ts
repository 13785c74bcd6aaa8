/**
 * The lookup of a lost create from the tail of the last walk, against a fake remote whose order
 * the contract does not give: the tail is trusted only when the walk and the tail read show ids
 * in ascending order; any other order means a full walk, and the lost object is found either way.
 */
import type { Core } from '@strapi/strapi';
import type { RemoteClient } from '../../server/src/remote';
import type { InventoryTable } from '../../server/src/sync/inventory/table';
import type { RemoteIdentity } from '../../server/src/sync/inventory/identity';
import { createInventoryWalk } from '../../server/src/sync/inventory/walk';
import { createRecovery, fingerprintOf } from '../../server/src/sync/push/recovery';
import type { InventoryRow } from '../../server/src/sync/inventory/table';

type Obj = { id: number; name: string; latitude: number; longitude: number };
type Order = 'ascending' | 'newest first' | 'by name';

/** A remote with offset pages of `size`; links carry the offset in a format of its own. */
function fakeRemote(order: Order, size = 10, delayMs = 0) {
  const objects: Obj[] = [];
  let nextId = 1000;
  const gets: Array<string | null> = [];
  const listing = () => {
    const all = [...objects];
    if (order === 'newest first') all.sort((a, b) => b.id - a.id);
    else if (order === 'by name') all.sort((a, b) => a.name.localeCompare(b.name));
    else all.sort((a, b) => a.id - b.id);
    return all;
  };
  const link = (at: number) => `https://remote.test/v3.0/pinpoints?from=${at}`;
  const page = async ({ link: at }: { link?: string }) => {
    gets.push(at ?? null);
    if (delayMs) await new Promise((r) => setTimeout(r, delayMs));
    const offset = at ? Number(new URL(at).searchParams.get('from')) : 0;
    const all = listing();
    return {
      next: offset + size < all.length ? link(offset + size) : null,
      previous: offset > 0 ? link(Math.max(0, offset - size)) : null,
      results: all.slice(offset, offset + size),
    };
  };
  return {
    gets,
    add: (name: string, latitude = 1, longitude = 2, id = nextId++) => {
      objects.push({ id, name, latitude, longitude });
      return id;
    },
    remove: (id: number) =>
      objects.splice(
        objects.findIndex((o) => o.id === id),
        1
      ),
    client: { pinpoints: { page } },
  };
}

/** The inventory table, in memory; `owned`: remote ids the sync states name. */
function fakeTable(owned: Set<number>) {
  const rows = new Map<number, InventoryRow>();
  return {
    rows,
    upsertObjects: async (
      _r: string,
      items: Array<{ id: number; identity: RemoteIdentity }>,
      seenAt: number
    ) => {
      for (const { id, identity } of items)
        rows.set(id, { ...identity, resource: 'pinpoint', remoteId: id, seenAt });
    },
    removeUnseen: async (_r: string, before: number) => {
      for (const [id, row] of rows) if (row.seenAt < before) rows.delete(id);
    },
    byNameKey: async (_r: string, key: string) =>
      [...rows.values()].filter((r) => r.nameKey === key),
    ownedNotHeld: async (_r: string, upTo: number) =>
      [...owned].filter((id) => id <= upTo && !rows.has(id)).length,
  };
}

function setup(order: Order, delayMs = 0) {
  const remote = fakeRemote(order, 10, delayMs);
  const owned = new Set<number>();
  const table = fakeTable(owned);
  let stored: unknown = null;
  const strapi = {
    store: () => ({
      get: async () => stored,
      set: async ({ value }: { value: unknown }) => void (stored = value),
    }),
    log: { warn: () => undefined },
  };
  const walk = createInventoryWalk({
    // Fakes of the parts the walk and the recovery use, not of every method their types list.
    strapi: strapi as unknown as Core.Strapi,
    table: table as unknown as InventoryTable,
    client: async () => remote.client as unknown as RemoteClient,
    background: async (fn, onSent) => {
      onSent?.(Date.now());
      return fn();
    },
    pageRetryDelayMs: () => 0,
  });
  const recovery = createRecovery({ walk, table });
  const lookFor = (name: string, lostAt: number) =>
    recovery.candidates(
      remote.client as unknown as RemoteClient,
      'pinpoint',
      fingerprintOf('pinpoint', { name, latitude: 1, longitude: 2 }),
      lostAt
    );
  return { remote, owned, table, walk, lookFor };
}

const tick = () => new Promise((r) => setTimeout(r, 2));

describe.each(['ascending', 'newest first', 'by name'] as const)(
  'a lost create after a walk, remote listing %s',
  (order) => {
    test('that landed is found, that did not is not; a full walk unless the order is ascending', async () => {
      const { remote, owned, walk, lookFor } = setup(order);
      // 95 objects (10 pages), some created by the entries, whose ids the states hold.
      for (let i = 0; i < 95; i++) {
        const id = remote.add(`Existing ${String.fromCharCode(98 + (i % 20))}${i}`);
        if (i % 3 === 0) owned.add(id);
      }
      await walk.walkResource('pinpoint');
      const pagesOfAWalk = remote.gets.length;
      expect(pagesOfAWalk).toBe(10);

      // An entry's confirmed create, then a lost one that landed: both after the walk.
      owned.add(remote.add('Confirmed'));
      await tick();
      const lostAt = Date.now();
      const landed = remote.add('A landed one');
      await tick();
      remote.gets.length = 0;
      expect(await lookFor('A landed one', lostAt)).toEqual([landed]);
      const first = remote.gets.length;
      if (order === 'ascending') expect(first).toBeLessThanOrEqual(3);
      else expect(first).toBeGreaterThanOrEqual(pagesOfAWalk);

      // A lost create that did not land: nothing to adopt, and the answer comes from as few pages.
      remote.gets.length = 0;
      await tick();
      expect(await lookFor('A lost one', Date.now())).toEqual([]);
      if (order === 'ascending') expect(remote.gets.length).toBeLessThanOrEqual(3);
      else expect(remote.gets.length).toBeGreaterThanOrEqual(pagesOfAWalk);
    });
  }
);

test('an entry create that got an id below the last walk greatest: the order of ids cannot be relied upon', async () => {
  const { remote, owned, walk, lookFor } = setup('ascending');
  for (let i = 0; i < 45; i++) remote.add(`Existing ${i}`);
  await walk.walkResource('pinpoint');
  // The remote gave an entry's create an id lower than ones it had given before: listed by id,
  // that object is not in the tail, and a lost one might not be either.
  owned.add(remote.add('Low id', 1, 2, 1));
  await tick();
  const lostAt = Date.now();
  const landed = remote.add('Also low', 1, 2, 2);
  remote.gets.length = 0;
  expect(await lookFor('Also low', lostAt)).toEqual([landed]);
  // The tail was read, then everything from the first page: a full walk.
  expect(remote.gets[0]).not.toBeNull();
  expect(remote.gets).toContain(null);
  expect(remote.gets.length).toBeGreaterThanOrEqual(5);
});

test('the tail moves on: a second lost create reads from where the first read ended', async () => {
  const { remote, walk, lookFor, table } = setup('ascending');
  for (let i = 0; i < 40; i++) remote.add(`Existing ${i}`);
  await walk.walkResource('pinpoint');
  for (let i = 0; i < 25; i++) remote.add(`New ${i}`);
  await tick();
  remote.gets.length = 0;
  expect(await lookFor('Nothing', Date.now())).toEqual([]);
  const firstRead = remote.gets.length;
  expect(remote.gets.every((g) => g !== null)).toBe(true);
  expect(table.rows.size).toBe(65);
  remote.add('Later');
  await tick();
  remote.gets.length = 0;
  expect(await lookFor('Later', Date.now() - 1)).toHaveLength(1);
  expect(remote.gets.length).toBeLessThan(firstRead);
});

test('a create lost while a walk is under way: that walk, then the tail, not a second full walk', async () => {
  const { remote, walk, lookFor } = setup('ascending', 5);
  for (let i = 0; i < 95; i++) remote.add(`Existing ${i}`);
  const walking = walk.walkResource('pinpoint');
  await new Promise((r) => setTimeout(r, 15));
  expect(remote.gets.length).toBeGreaterThan(0);
  expect(remote.gets.length).toBeLessThan(10);
  const lostAt = Date.now();
  const landed = remote.add('Lost during the walk');
  expect(await lookFor('Lost during the walk', lostAt)).toEqual([landed]);
  await walking;
  // The walk's 10 pages, then the tail (the last page again, the new one, the one before again).
  expect(remote.gets.filter((g) => g === null)).toHaveLength(1);
  expect(remote.gets.length).toBeLessThanOrEqual(10 + 3);
});

test('callers woken together by the end of a walk share the next one', async () => {
  const { remote, walk } = setup('ascending', 2);
  for (let i = 0; i < 45; i++) remote.add(`Existing ${i}`);
  const first = walk.walkResource('pinpoint');
  await new Promise((r) => setTimeout(r, 10));
  const after = Date.now();
  const [a, b] = await Promise.all([
    walk.walkResource('pinpoint', after),
    walk.walkResource('pinpoint', after),
    first,
  ]);
  expect(a).toBe(b);
  // Two walks in all (from the first page each), never three.
  expect(remote.gets.filter((g) => g === null)).toHaveLength(2);
  expect(remote.gets).toHaveLength(10);
});
