import { newRow } from '../../server/src/sync/shared/tables';

const col = (attr: string) => attr;

test('rows the plugin inserts get document ids shaped like Strapi’s, in the order they are made', () => {
  const at = new Date('2026-11-26T06:00:00.000Z');
  const later = new Date(at.getTime() + 1);
  const ids = [
    ...Array.from({ length: 50 }, () => newRow(col, at).documentId as string),
    ...Array.from({ length: 50 }, () => newRow(col, later).documentId as string),
  ];
  for (const id of ids) expect(id).toMatch(/^[0-9a-z]{24}$/);
  expect(new Set(ids).size).toBe(ids.length);
  // Ordered: an index on the column takes each insert on its last page.
  expect([...ids].sort()).toEqual(ids);
});

test('a row has the timestamps given and the columns of each set, later sets winning', () => {
  const at = new Date('2026-11-26T06:00:00.000Z');
  const row = newRow(col, at, { status: 'pending', attempts: 0 }, { status: 'synced' });
  expect(row).toMatchObject({ createdAt: at, updatedAt: at, status: 'synced', attempts: 0 });
  expect(Object.keys(row)).toEqual(['documentId', 'createdAt', 'updatedAt', 'status', 'attempts']);
});
