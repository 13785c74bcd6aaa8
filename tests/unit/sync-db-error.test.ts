/**
 * What a log line says of a failed statement: the database's reason, never the statement nor the
 * values it held (editors' content), on a real SQLite database through knex.
 */
import knex, { type Knex } from 'knex';
import { failureOf, reasonOf } from '../../server/src/sync/shared/db-error';
import { MappingError } from '../../server/src/mapping/errors';
import { RemoteError } from '../../server/src/remote/errors';

let db: Knex;

beforeAll(async () => {
  db = knex({
    client: 'better-sqlite3',
    connection: { filename: ':memory:' },
    useNullAsDefault: true,
  });
  await db.schema.createTable('notes', (t) => {
    t.increments('id');
    t.string('body').notNullable().unique();
  });
});

afterAll(() => db.destroy());

const thrownBy = async (run: () => Promise<unknown>) => {
  try {
    await run();
  } catch (err) {
    return err;
  }
  throw new Error('expected the statement to fail');
};

test('a refused insert gives the database reason, without the statement or its values', async () => {
  await db('notes').insert({ body: 'Secret garden at 12 rue X' });
  const err = await thrownBy(() => db('notes').insert({ body: 'Secret garden at 12 rue X' }));
  expect((err as Error).message).toContain('Secret garden'); // what knex puts in the message
  for (const text of [reasonOf(err), failureOf(err)]) {
    expect(text).toBe('SQLITE_CONSTRAINT_UNIQUE: UNIQUE constraint failed: notes.body');
    expect(text).not.toMatch(/insert into|Secret garden/i);
  }
});

test('a statement on a missing table gives the reason only', async () => {
  const err = await thrownBy(() => db('gone').insert({ body: 'Private note' }));
  expect(failureOf(err)).toBe('SQLITE_ERROR: no such table: gone');
});

test("the remote's and the mapping's own words are kept whole", () => {
  const remote = new RemoteError({
    message: '400 Bad Request on POST /v3.0/pinpoints: name: Paris - Louvre is taken',
    code: 'validation',
    status: 400,
    method: 'POST',
    path: '/v3.0/pinpoints',
  });
  expect(failureOf(remote)).toBe(remote.message);
  const mapping = new MappingError('title', 'Paris - Louvre is too long');
  expect(failureOf(mapping)).toBe('title: Paris - Louvre is too long');
});
