import type { Core } from '@strapi/strapi';
import { errors } from '@strapi/utils';
import {
  DatabaseUnavailableError,
  explained,
  publicReason,
} from '../../server/src/middlewares/database';

describe('publicReason', () => {
  test.each([
    [
      'ECONNREFUSED: connect ECONNREFUSED 10.2.3.4:5432',
      'ECONNREFUSED: connect ECONNREFUSED <address>',
    ],
    ['connect ECONNREFUSED ::1:5432', 'connect ECONNREFUSED <address>'],
    ['connect ETIMEDOUT [fe80::1]:3306', 'connect ETIMEDOUT <address>'],
    [
      'ENOTFOUND: getaddrinfo ENOTFOUND db.internal.example',
      'ENOTFOUND: getaddrinfo ENOTFOUND <host>',
    ],
    [
      'password authentication failed for user "strapi"',
      'password authentication failed for user "…"',
    ],
    ['SQLITE_BUSY: database is locked', 'SQLITE_BUSY: database is locked'],
    [
      'Knex: Timeout acquiring a connection. The pool is probably full.',
      'Knex: Timeout acquiring a connection. The pool is probably full.',
    ],
  ])('%s', (raw, shown) => expect(publicReason(raw)).toBe(shown));

  test('the error an answer carries names no address, in its message or its details', () => {
    const err = new DatabaseUnavailableError('connect ECONNREFUSED 10.2.3.4:5432');
    expect(err.message).toMatch(/^The database does not answer \(connect ECONNREFUSED <address>\)/);
    expect(JSON.stringify(err.details)).not.toContain('10.2.3.4');
  });
});

describe('explained', () => {
  const strapiWith = (raw: jest.Mock) =>
    ({ db: { connection: { raw } } }) as unknown as Core.Strapi;

  test("Strapi's own errors are passed on without asking the database", async () => {
    const raw = jest.fn().mockResolvedValue([]);
    const invalid = new errors.ValidationError('groups must be a list');
    expect(await explained(strapiWith(raw), invalid)).toBe(invalid);
    expect(raw).not.toHaveBeenCalled();
  });

  test('another error becomes a DatabaseUnavailableError when the database does not answer', async () => {
    const raw = jest.fn().mockRejectedValue(new Error('connect ECONNREFUSED 10.2.3.4:5432'));
    const thrown = await explained(strapiWith(raw), new Error('select 1 - boom'));
    expect(thrown).toBeInstanceOf(DatabaseUnavailableError);
    const fine = jest.fn().mockResolvedValue([]);
    const other = new Error('not the database');
    expect(await explained(strapiWith(fine), other)).toBe(other);
  });
});
