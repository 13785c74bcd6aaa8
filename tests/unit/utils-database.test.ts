import { DatabaseUnavailableError, publicReason } from '../../server/src/utils/database';

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
