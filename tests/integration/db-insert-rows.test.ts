/**
 * insertRows, the multi-row INSERT and upsert the sync writes its batches with (states, outbox,
 * refs, push history, inventory), on the plugin's own tables of a real Strapi on each database:
 * values as given, an upsert that changes only what it names, SQL in the update part kept apart
 * per conflict, batches of several sizes, and a row without a column refused before any write.
 */
import { startApp, stopApp, type TestApp } from '../helpers/strapi';
import { insertRows, type OnConflict } from '../../server/src/sync/shared/dialect';
import {
  ATTEMPT_UID,
  INVENTORY_MEMBER_UID,
  INVENTORY_UID,
  newRow,
  tableInfo,
} from '../../server/src/sync/shared/tables';
import { kind } from '../helpers/test-db';

let app: TestApp;

beforeAll(async () => {
  app = await startApp();
});

afterAll(() => stopApp(app));

const knex = () => app.strapi.db.connection;
const members = () => tableInfo(app.strapi, INVENTORY_MEMBER_UID);

const member = (listId: number, pinpointId: number, seenAt: number) => {
  const { col } = members();
  return newRow(col, new Date(), {
    [col('listId')]: listId,
    [col('pinpointId')]: pinpointId,
    [col('seenAt')]: seenAt,
  });
};

const membersOf = async (listId: number) => {
  const { table, col } = members();
  const rows = await knex()(table).where(col('listId'), listId).orderBy(col('pinpointId'));
  return rows.map((r: Record<string, unknown>) => ({
    id: Number(r.id),
    pinpointId: Number(r[col('pinpointId')]),
    seenAt: Number(r[col('seenAt')]),
    documentId: r[col('documentId')],
  }));
};

test(`rows go in with their values, undefined as null, on ${kind()}`, async () => {
  const { table, col } = tableInfo(app.strapi, ATTEMPT_UID);
  const at = new Date('2026-03-04T05:06:07.000Z');
  const row = (n: number, httpStatus: number | undefined, message: string) =>
    newRow(col, at, {
      [col('entryKey')]: 'insert-rows-test',
      [col('at')]: at,
      [col('operation')]: 'create',
      [col('outcome')]: n % 2 ? 'ok' : 'failed',
      [col('httpStatus')]: httpStatus,
      [col('message')]: message,
      [col('durationMs')]: n,
    });
  await insertRows(knex(), table, [
    row(1, 201, 'created'),
    row(2, undefined, `a "quoted" message with a ? and a '`),
    row(3, 500, 'é 😀'),
  ]);
  const back = await knex()(table).where(col('entryKey'), 'insert-rows-test').orderBy('id');
  expect(back.map((r: Record<string, unknown>) => r[col('httpStatus')])).toEqual([201, null, 500]);
  expect(back.map((r: Record<string, unknown>) => r[col('message')])).toEqual([
    'created',
    `a "quoted" message with a ? and a '`,
    'é 😀',
  ]);
  expect(back.map((r: Record<string, unknown>) => Number(r[col('durationMs')]))).toEqual([1, 2, 3]);
  for (const r of back) expect(new Date(r[col('at')] as string).getTime()).toBe(at.getTime());
});

test("a plain object in a JSON column goes in as its JSON, as with knex's builder", async () => {
  const { table, col } = tableInfo(app.strapi, INVENTORY_UID);
  const fields = { name: 'Louvre', tags: ['museum'], nested: { a: 1 } };
  const row = (remoteId: number, value: unknown) =>
    newRow(col, new Date(), {
      [col('resource')]: 'pinpoint',
      [col('remoteId')]: remoteId,
      [col('name')]: 'Louvre',
      [col('fields')]: value,
      [col('seenAt')]: 1,
    });
  await insertRows(knex(), table, [row(77001, fields), row(77002, JSON.stringify(fields))]);
  const back = await knex()(table)
    .whereIn(col('remoteId'), [77001, 77002])
    .orderBy(col('remoteId'));
  const parsed = back.map((r: Record<string, unknown>) => {
    const v = r[col('fields')];
    return typeof v === 'string' ? JSON.parse(v) : v;
  });
  expect(parsed).toEqual([fields, fields]);
});

test('an upsert changes the columns it names on a taken key and inserts the rest', async () => {
  const { table, col } = members();
  const conflict: OnConflict = {
    on: [col('listId'), col('pinpointId')],
    set: [col('seenAt'), col('updatedAt')],
  };
  await insertRows(knex(), table, [member(9001, 1, 1), member(9001, 2, 1)], conflict);
  const before = await membersOf(9001);
  await insertRows(knex(), table, [member(9001, 2, 2), member(9001, 3, 2)], conflict);
  const after = await membersOf(9001);
  expect(after.map(({ pinpointId, seenAt }) => [pinpointId, seenAt])).toEqual([
    [1, 1],
    [2, 2],
    [3, 2],
  ]);
  // The row that was there keeps its id and what the update part does not name.
  expect(after[1].id).toBe(before[1].id);
  expect(after[1].documentId).toBe(before[1].documentId);
});

test('SQL in the update part: two conflicts on the same columns stay apart, at any batch size', async () => {
  const { table, col } = members();
  const k = knex();
  const plus = (n: number): OnConflict => ({
    on: [col('listId'), col('pinpointId')],
    set: { [col('seenAt')]: k.raw(`??.?? + ${n}`, [table, col('seenAt')]) },
  });
  const plusOne = plus(1);
  const plusTen = plus(10);
  const batch = (size: number) => Array.from({ length: size }, (_, i) => member(9002, i + 1, 100));
  await insertRows(k, table, batch(150), plusOne);
  await insertRows(k, table, batch(150), plusOne);
  await insertRows(k, table, batch(7), plusTen);
  await insertRows(k, table, batch(7), plusOne);
  const rows = await membersOf(9002);
  expect(rows).toHaveLength(150);
  expect(rows.slice(0, 7).every((r) => r.seenAt === 112)).toBe(true);
  expect(rows.slice(7).every((r) => r.seenAt === 101)).toBe(true);
});

test('more rows than one statement takes go in several, all of them', async () => {
  const { table } = members();
  const rows = Array.from({ length: 450 }, (_, i) => member(9004, i + 1, 1));
  await insertRows(knex(), table, rows);
  expect((await membersOf(9004)).map((r) => r.pinpointId)).toEqual(rows.map((_, i) => i + 1));
});

test('a row without one of the columns of the first is refused, and nothing is written', async () => {
  const { table, col } = members();
  const incomplete = member(9003, 2, 1);
  delete incomplete[col('seenAt')];
  await expect(insertRows(knex(), table, [member(9003, 1, 1), incomplete])).rejects.toThrow(
    `a row inserted into ${table} has no ${col('seenAt')}`
  );
  expect(await membersOf(9003)).toEqual([]);
});
