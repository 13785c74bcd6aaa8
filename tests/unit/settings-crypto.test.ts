/**
 * The stored client secret survives a key rotation as Strapi's docs advise it (a new key in front
 * of APP_KEYS), is read from 0.1's format, and says when none of the app's keys opens it.
 */
import { sealV1 } from '../helpers/crypto';
import { NO_APP_SECRET, open, seal } from '../../server/src/settings/crypto';

const SECRET = 'client-secret-4f9a';

describe('the sealed client secret', () => {
  test('a key put in front of APP_KEYS still opens it, and asks for a new seal', () => {
    const sealed = seal(SECRET, { appKeys: ['old'] });
    expect(sealed.startsWith('v2:')).toBe(true);
    expect(sealed).not.toContain(SECRET);
    expect(open(sealed, { appKeys: ['old'] })).toEqual({ plain: SECRET, stale: false });
    expect(open(sealed, { appKeys: ['new', 'old'] })).toEqual({ plain: SECRET, stale: true });
    const resealed = seal(SECRET, { appKeys: ['new', 'old'] });
    // The old key may go once the secret is sealed again with the new one.
    expect(open(resealed, { appKeys: ['new'] })).toEqual({ plain: SECRET, stale: false });
    expect(() => open(sealed, { appKeys: ['new'] })).toThrow(/cannot be read/);
  });

  test('the encryption key seals when set: APP_KEYS may change at will', () => {
    const sealed = seal(SECRET, { encryptionKey: 'enc', appKeys: ['a', 'b'] });
    expect(open(sealed, { encryptionKey: 'enc', appKeys: ['c'] })).toEqual({
      plain: SECRET,
      stale: false,
    });
    expect(open(sealed, { appKeys: ['enc'] }).plain).toBe(SECRET);
    expect(() => open(sealed, { encryptionKey: 'other', appKeys: ['a', 'b'] })).toThrow(
      /cannot be read/
    );
  });

  test("0.1's format is read with the same keys, and is always sealed again", () => {
    const v1 = sealV1(SECRET, ['enc', 'a', 'b']);
    expect(open(v1, { encryptionKey: 'enc', appKeys: ['a', 'b'] })).toEqual({
      plain: SECRET,
      stale: true,
    });
    expect(() => open(v1, { encryptionKey: 'enc', appKeys: ['c', 'a', 'b'] })).toThrow(
      /cannot be read/
    );
  });

  test('no key, or something that is not a sealed secret, is said in words', () => {
    expect(() => seal(SECRET, { encryptionKey: '', appKeys: [] })).toThrow(NO_APP_SECRET);
    expect(() => open('plain text', { appKeys: ['a'] })).toThrow(/unknown format/);
    const sealed = seal(SECRET, { appKeys: ['a'] });
    const [v, iv, tag, data] = sealed.split(':');
    const flipped = Buffer.from(data, 'base64');
    flipped[0] ^= 1;
    expect(() =>
      open([v, iv, tag, flipped.toString('base64')].join(':'), { appKeys: ['a'] })
    ).toThrow(/cannot be read/);
  });
});
