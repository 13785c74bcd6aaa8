import { MappingError } from '../../server/src/mapping';
import { parseCoordinates } from '../../server/src/mapping/coordinates';
import { mapDates, toMsUtc } from '../../server/src/mapping/dates';
import { formatBytes, mediaFileOf } from '../../server/src/mapping/media';
import { PathError, readPath, resolvePath } from '../../server/src/mapping/paths';
import { mapTags } from '../../server/src/mapping/tags';
import { lookup, modelsA } from './mapping-fixtures';

describe('dates', () => {
  it.each([
    ['2018-02-16T20:00:00.000Z', '2018-02-16T20:00:00.000Z'],
    ['2018-02-16T22:00:00+02:00', '2018-02-16T20:00:00.000Z'],
    ['2018-02-16T15:30:00-04:30', '2018-02-16T20:00:00.000Z'],
    ['2018-02-16T20:00:00.123456Z', '2018-02-16T20:00:00.123Z'],
    ['2018-02-16T23:59:59.9999+00:00', '2018-02-16T23:59:59.999Z'],
    ['2018-02-16T20:00:00', '2018-02-16T20:00:00.000Z'],
    ['2024-05-01', '2024-05-01T00:00:00.000Z'],
    ['2024-02-29', '2024-02-29T00:00:00.000Z'],
  ])('%s → %s', (input, expected) => {
    expect(toMsUtc(input, 'dates')).toBe(expected);
  });

  it.each(['2023-02-29', '2024-13-01', 'tomorrow', '', '2024-05-01T25:00:00Z'])(
    'refuses %j',
    (input) => {
      expect(() => toMsUtc(input, 'dates[0]')).toThrow(MappingError);
    }
  );

  it('refuses numbers and objects (epoch units are ambiguous)', () => {
    expect(() => toMsUtc(1714521600, 'dates')).toThrow(/1714521600 is not a date/);
  });

  it('equal start and end is an instant, not an error', async () => {
    expect(
      await mapDates(
        { d: [{ start: '2024-01-01T10:00:00Z', end: '2024-01-01T12:00:00+02:00' }] },
        { path: 'd', start: 'start', end: 'end' }
      )
    ).toEqual([{ start: '2024-01-01T10:00:00.000Z', end: '2024-01-01T10:00:00.000Z' }]);
  });

  it('one object (non-repeatable component) is one range', async () => {
    expect(
      await mapDates(
        { when: { a: '2024-01-01', b: '2024-01-02' } },
        { path: 'when', start: 'a', end: 'b' }
      )
    ).toEqual([{ start: '2024-01-01T00:00:00.000Z', end: '2024-01-02T00:00:00.000Z' }]);
  });
});

describe('tags', () => {
  it('comma or newline separated text, trimmed, de-duplicated, order kept', () => {
    expect(mapTags(' b, a ,\n b ,, c\n', 'tags')).toEqual(['b', 'a', 'c']);
  });
  it('objects use the key, else name, else the first text property', () => {
    expect(mapTags([{ name: 'x' }, { label: 'y', n: 1 }, null], 'tags')).toEqual(['x', 'y']);
    expect(mapTags([{ code: 'k', name: 'ignored' }], 'tags', 'code')).toEqual(['k']);
    expect(mapTags({ name: 'single' }, 'tags')).toEqual(['single']);
  });
  it('keeps emoji and case; refuses nested lists', () => {
    expect(mapTags(['Été 🌞', 'été 🌞'], 'tags')).toEqual(['Été 🌞', 'été 🌞']);
    expect(() => mapTags([['a']], 'tags')).toThrow('tags[0]: expected text, got a list of 1');
  });
});

describe('coordinates', () => {
  it('refuses arrays other than a GeoJSON point', () => {
    expect(() => parseCoordinates([1, 2], 'coordinates', 'pos')).toThrow(/ambiguous/);
    expect(() => parseCoordinates(['1', '2'], 'coordinates', 'pos')).toThrow(/ambiguous/);
  });
  it('an empty component is no position', () => {
    expect(parseCoordinates({ id: 4, lat: null, lng: null }, 'coordinates', 'geo')).toBeUndefined();
    expect(parseCoordinates({ id: 4, lat: ' ', lng: [] }, 'coordinates', 'geo')).toBeUndefined();
  });
  it('a blank latitude or longitude is a missing one, not an undefined number', () => {
    expect(() => parseCoordinates({ lat: ' ', lng: 5 }, 'coordinates', 'geo')).toThrow(
      "coordinates: no latitude in the object at 'geo' (found 'lng')"
    );
    expect(() => parseCoordinates({ lat: 5, lng: [' '] }, 'coordinates', 'geo')).toThrow(
      "coordinates: no longitude in the object at 'geo' (found 'lat')"
    );
  });
});

describe('media', () => {
  const ctx = (bytes = Buffer.from('abc')) => ({
    readMedia: async () => bytes,
    maxMediaBytes: 1024,
  });
  it('formats sizes in words', () => {
    expect(formatBytes(512)).toBe('512 bytes');
    expect(formatBytes(1536)).toBe('1.5 KB');
    expect(formatBytes(5 * 1024 * 1024)).toBe('5 MB');
    expect(formatBytes(12.3 * 1024 * 1024)).toBe('12.3 MB');
  });
  it('infers name and type when Strapi did not give them', async () => {
    expect(
      await mediaFileOf({ url: 'https://cdn.example/a/b%20c.JPG?x=1' }, 'media', 'cover', ctx())
    ).toEqual({ content: 'YWJj', name: 'b c.JPG', type: 'image/jpeg' });
    expect(
      await mediaFileOf({ url: '/uploads/x', name: 'photo', ext: '.png' }, 'media', 'cover', ctx())
    ).toEqual({ content: 'YWJj', name: 'photo.png', type: 'image/png' });
  });
  it('refuses empty files and non-media values', async () => {
    await expect(
      mediaFileOf({ url: '/a.png' }, 'media', 'cover', ctx(Buffer.alloc(0)))
    ).rejects.toThrow('media: a.png is empty (0 bytes)');
    await expect(mediaFileOf({ nope: 1 }, 'media', 'cover', ctx())).rejects.toThrow(
      "media: expected a media file at 'cover', got an object"
    );
  });
});

describe('paths', () => {
  it('flattens arrays met on the way', () => {
    expect(readPath({ a: [{ b: [{ c: 1 }, { c: 2 }] }, { b: { c: 3 } }, null] }, 'a.b.c')).toEqual([
      1, 2, 3,
    ]);
    expect(readPath({ a: 'x' }, 'a.b')).toBeUndefined();
  });
  it('refuses polymorphic relations and malformed paths', () => {
    const models = {
      ...modelsA,
      'api::x.x': { attributes: { owner: { type: 'relation', relation: 'morphToOne' } } },
    };
    expect(() => resolvePath('api::x.x', 'owner', lookup(models))).toThrow(PathError);
    expect(() => resolvePath('api::place.place', 'geo..lat', lookup(models))).toThrow(
      /not a valid path/
    );
    expect(() => resolvePath('api::place.place', 'title.x', lookup(models))).toThrow(
      "'title' is a string field; it has no 'x'"
    );
  });
  it('walks media into the upload file model', () => {
    const upload = { attributes: { caption: { type: 'text' } } };
    const models = { ...modelsA, 'plugin::upload.file': upload };
    const r = resolvePath('api::place.place', 'cover.caption', lookup(models));
    expect(r.last).toMatchObject({ name: 'caption', kind: 'scalar' });
  });
});
