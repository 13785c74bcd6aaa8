import { extend } from '../../server/src/utils/objects';

describe('extend', () => {
  it('gives a new object with the later values winning, and leaves both inputs alone', () => {
    const base = { contentType: 'api::place.place', documentId: 'a1', locale: '' };
    const extra = { locale: 'fr', reason: 'resync' };
    const out = extend(base, extra);
    expect(out).toEqual({
      contentType: 'api::place.place',
      documentId: 'a1',
      locale: 'fr',
      reason: 'resync',
    });
    expect(out).not.toBe(base);
    expect(base).toEqual({ contentType: 'api::place.place', documentId: 'a1', locale: '' });
    expect(extra).toEqual({ locale: 'fr', reason: 'resync' });
  });

  it('keeps a `__proto__` key of a JSON answer as data, as a spread does', () => {
    const answer = JSON.parse('{"id": 7, "__proto__": {"polluted": true}}') as object;
    const out = extend(answer, { adopted: false }) as Record<string, unknown>;
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect(out.polluted).toBeUndefined();
    expect(Object.hasOwn(out, '__proto__')).toBe(true);
    expect(out).toMatchObject({ id: 7, adopted: false });
  });
});
