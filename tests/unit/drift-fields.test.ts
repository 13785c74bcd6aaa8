import { changedFields, pushedFieldsOf } from '../../server/src/sync/drift/fields';

/** What a remote may rewrite without anyone changing the object is not drift; anything else is. */

const pushed = pushedFieldsOf('pinpoint', {
  name: 'Louvre',
  description: '<p>A <b>big</b>\n  museum</p>',
  latitude: 48.8606111,
  longitude: 2.337644,
  category: 7,
  tags: ['art', 'museum'],
  media_file: { name: 'x.png' },
});

test('only the fields read back are kept from a payload', () => {
  expect(Object.keys(pushed).sort()).toEqual([
    'category',
    'description',
    'latitude',
    'longitude',
    'name',
    'tags',
  ]);
});

test('rounded coordinates, rewritten blanks and markup, reordered tags and other date forms are not changes', () => {
  expect(
    changedFields('pinpoint', pushed, {
      name: 'Louvre',
      description: '<P>A <B>big</B> museum</P>',
      latitude: 48.86061,
      longitude: 2.33764,
      category: '7',
      tags: ['museum', 'art'],
    })
  ).toEqual([]);
  const dates = [{ start: '2026-07-01T18:00:00.000Z', end: '2026-07-01T20:00:00.000Z' }];
  expect(
    changedFields(
      'event',
      { dates },
      { dates: [{ start: '2026-07-01T20:00:00+02:00', end: '2026-07-01T20:00:00.000000Z' }] }
    )
  ).toEqual([]);
  expect(changedFields('list', { name: 'Tour', description: '' }, { name: 'Tour' })).toEqual([]);
});

test('real edits are reported with before and after', () => {
  expect(
    changedFields('pinpoint', pushed, {
      ...pushed,
      name: 'Louvre!',
      latitude: 48.87,
      tags: ['art'],
    })
  ).toEqual([
    { field: 'name', before: 'Louvre', after: 'Louvre!' },
    { field: 'latitude', before: 48.8606111, after: 48.87 },
    { field: 'tags', before: ['art', 'museum'], after: ['art'] },
  ]);
  expect(
    changedFields('pinpoint', pushed, {
      ...pushed,
      description: '<p>A big museum</p>',
      category: null,
    })
  ).toEqual([
    { field: 'description', before: pushed.description, after: '<p>A big museum</p>' },
    { field: 'category', before: 7, after: null },
  ]);
  const dates = [{ start: '2026-07-01T18:00:00.000Z', end: '2026-07-01T20:00:00.000Z' }];
  expect(
    changedFields(
      'event',
      { dates },
      { dates: [{ start: '2026-07-02T18:00:00.000Z', end: '2026-07-02T20:00:00.000Z' }] }
    )
  ).toHaveLength(1);
});
