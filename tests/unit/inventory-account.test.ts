import { accountKey } from '../../server/src/sync/inventory/account';

/** Which account a set of credentials names: what decides whether the inventory is dropped. */
describe('accountKey', () => {
  const key = accountKey('https://api.example.com', 'client-1');

  test('the same account however the base URL is written', () => {
    expect(accountKey('https://api.example.com/', 'client-1')).toBe(key);
    expect(accountKey(' https://api.example.com// ', ' client-1')).toBe(key);
  });

  test('another client id or another service is another account', () => {
    expect(accountKey('https://api.example.com', 'client-2')).not.toBe(key);
    expect(accountKey('https://other.example.com', 'client-1')).not.toBe(key);
  });

  test('names no credential: the stored key is a hash', () => {
    expect(key).toMatch(/^[0-9a-f]{32}$/);
    expect(key).not.toContain('client-1');
  });
});
