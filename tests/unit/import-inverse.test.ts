import { htmlToMarkdown, htmlToText, markdownToHtml } from '../../server/src/mapping/html';
import { invert, planFields, type InverseLookups } from '../../server/src/import/inverse';
import { mapEntry } from '../../server/src/mapping';
import { htmlToBlocks, renderBlocks } from '../../server/src/mapping/blocks';
import type { Entry, Mapping } from '../../server/src/config/types';
import { context, lookup, mappingA, modelsA, modelsB } from './mapping-fixtures';

/** The inverse of a mapping: the same paths read backwards, on models nobody chose for it. */

const owners: Record<string, { contentType: string; documentId: string; locale: string }> = {
  'category:5': { contentType: 'api::icon.icon', documentId: 'icon-5', locale: '' },
  'pinpoint:9': { contentType: 'api::place.place', documentId: 'place-9', locale: 'fr' },
  'pinpoint:10': { contentType: 'api::venue.venue', documentId: 'venue-10', locale: '' },
};
const lookups = (pinpointOf: number | null | undefined = undefined): InverseLookups => ({
  ownerOf: async (resource, id) => owners[`${resource}:${id}`] ?? null,
  membersOf: async () => [9, 11],
  pinpointOf: async () => pinpointOf,
  isLocalized: (uid) => uid === 'api::place.place',
});

// Model A's place without its lists (written from the lists' side), tags keyed by name, and an
// altitude the remote never answers.
const { lists: _lists, ...placeFields } = mappingA.place.fields;
const place: Mapping = {
  ...mappingA.place,
  fields: { ...placeFields, tags: { path: 'keywords', key: 'name' }, altitude: 'geo.lat' },
};

const venue: Mapping = {
  contentType: 'api::venue.venue',
  resource: 'pinpoint',
  fields: {
    name: 'kind.title',
    description: 'story',
    coordinates: 'info.position',
    address: 'info.street',
    tags: 'meta.topics',
    media: 'gallery',
    lists: 'collections',
  },
};

test('each mapped field is written where the push reads it, or named with the reason', async () => {
  const a = planFields(place, lookup(modelsA));
  expect(a.blocked).toBeNull();
  expect(a.targets.map((t) => [t.field, t.kind])).toEqual([
    ['name', 'text'],
    ['description', 'html'],
    ['address', 'text'],
    ['latitude', 'number'],
    ['longitude', 'number'],
    ['tags', 'tagEntries'],
    ['media', 'media'],
    ['media_credits', 'text'],
    ['category', 'relation'],
  ]);
  expect(a.notImportable).toEqual([
    {
      field: 'altitude',
      path: 'geo.lat',
      reason: 'the remote does not answer it (a request field only)',
    },
  ]);

  const b = planFields(venue, lookup(modelsB));
  expect(b.notImportable).toEqual([
    {
      field: 'name',
      path: 'kind.title',
      reason:
        "'kind' is a relation: the import writes the entry's own fields and components, not a related entry's",
    },
    {
      field: 'lists',
      path: 'collections',
      reason: "a pinpoint's lists are written from the lists' side, when they are imported",
    },
  ]);
  // The component's own coordinate keys, and the rich text field's Markdown.
  const pier = { name: 'Pier', description: '<p>A <em>pier</em></p>', latitude: 1, longitude: 2 };
  expect((await invert(b, 5, pier, lookups())).data).toMatchObject({
    story: 'A *pier*',
    info: { position: { latitude: 1, longitude: 2 } },
  });
});

test('a mapping with a transform is imported only with an inverse', () => {
  const transformed = { ...place, transform: (e: Entry) => e };
  expect(planFields(transformed, lookup(modelsA)).blocked).toMatch(
    /has a transform and no inverse/
  );
  expect(planFields({ ...transformed, inverse: (d) => d }, lookup(modelsA)).blocked).toBeNull();
});

test('a remote pinpoint becomes data that maps back to the same payload', async () => {
  const html =
    '<h2>Hours</h2><p>Open <strong>daily</strong>, <em>free</em>.</p><ul><li>Cafe</li></ul>';
  const remote = {
    name: ' Town hall ',
    description: html,
    address: '1 Main St',
    latitude: 47.2184,
    longitude: -1.5536,
    tags: ['history', 'art'],
    category: 5,
    media_credits: '© City',
    media_url: 'https://cdn.example/hall.png',
  };
  const plan = planFields(place, lookup(modelsA));
  const inv = await invert(plan, 3, remote, lookups());
  expect(inv.problems).toEqual([]);
  expect(inv.warnings).toEqual([]);
  expect(inv.data).toMatchObject({
    title: 'Town hall',
    address: '1 Main St',
    geo: { lat: 47.2184, lng: -1.5536 },
    credits: '© City',
  });
  expect(inv.media).toEqual([
    expect.objectContaining({ field: 'media', url: 'https://cdn.example/hall.png' }),
  ]);
  expect(inv.tagEntries[0]).toMatchObject({
    target: 'api::keyword.keyword',
    tags: ['history', 'art'],
  });
  expect(inv.relations[0]).toMatchObject({ field: 'category', refs: [{ documentId: 'icon-5' }] });

  // The entry as Strapi would give it back, populated: it maps to what the remote holds.
  const entry = {
    ...inv.data,
    keywords: [
      { documentId: 'k1', name: 'history' },
      { documentId: 'k2', name: 'art' },
    ],
    icon: { documentId: 'icon-5' },
  };
  const outcome = await mapEntry(place, entry, context(modelsA, { 'icon-5': 5 }));
  expect(outcome).toMatchObject({
    action: 'upsert',
    payload: {
      name: 'Town hall',
      description: html,
      address: '1 Main St',
      latitude: 47.2184,
      longitude: -1.5536,
      tags: ['history', 'art'],
      category: 5,
      media_credits: '© City',
    },
  });
});

test('HTML goes into Markdown, blocks or plain text, and back to the same HTML', () => {
  const html = '<p>A <strong>walk</strong> through the <a href="https://x.org/a">old town</a></p>';
  expect(htmlToMarkdown(html)).toBe('A **walk** through the [old town](https://x.org/a)');
  expect(markdownToHtml(htmlToMarkdown(html)).trim()).toBe(html);
  expect(renderBlocks(htmlToBlocks(html))).toBe(html);
  expect(htmlToText(html)).toBe('A walk through the old town');
  expect(htmlToText('<p>One</p><p>Two<br>lines</p>')).toBe('One\n\nTwo\nlines');
  // Never carried into a field: the push would strip them anyway.
  expect(htmlToBlocks('<p>x</p><script>alert(1)</script>')).toEqual([
    { type: 'paragraph', children: [{ type: 'text', text: 'x' }] },
  ]);
  expect(htmlToMarkdown('<p>x</p><script>alert(1)</script>')).toBe('x');
});

test('bad remote data is a problem of the object, with the reason', async () => {
  const plan = planFields(place, lookup(modelsA));
  const inv = await invert(plan, 4, { name: '', latitude: 91, longitude: 200 }, lookups());
  expect(inv.problems).toEqual([
    'it has no name',
    'latitude 91 is outside [-90, 90]',
    'longitude 200 is outside [-180, 180]',
  ]);
  const left = await invert(
    plan,
    4,
    { name: 'x', latitude: 1, longitude: 2, category: 77 },
    lookups()
  );
  expect(left.warnings).toEqual(['its category is left out: category 77 has no entry']);
});

test('dates go into the repeatable component, or the first range into two fields with a warning', async () => {
  const dates = [
    { start: '2026-07-01T18:00:00+02:00', end: '2026-07-01T20:00:00.000Z' },
    { start: '2026-07-02T18:00:00.000Z', end: '2026-07-02T20:00:00.000Z' },
  ];
  const happening = mappingA.happening;
  const inv = await invert(
    planFields(happening, lookup(modelsA)),
    1,
    { name: 'Gig', dates },
    lookups(9)
  );
  expect(inv.data.slots).toEqual([
    { from: '2026-07-01T16:00:00.000Z', to: '2026-07-01T20:00:00.000Z' },
    { from: '2026-07-02T18:00:00.000Z', to: '2026-07-02T20:00:00.000Z' },
  ]);
  expect(inv.relations[0].refs).toEqual([{ documentId: 'place-9', locale: 'fr' }]);

  const show: Mapping = {
    contentType: 'api::show.show',
    resource: 'event',
    fields: { name: 'headline', dates: { start: 'startsAt', end: 'endsAt' }, pinpoint: 'venue' },
  };
  const one = await invert(
    planFields(show, lookup(modelsB)),
    2,
    { name: 'Gig', dates },
    lookups(10)
  );
  expect(one.data).toMatchObject({
    startsAt: '2026-07-01T16:00:00.000Z',
    endsAt: '2026-07-01T20:00:00.000Z',
  });
  expect(one.warnings).toEqual(["only the first of its 2 date ranges fits in 'dates'"]);
  const lost = await invert(
    planFields(show, lookup(modelsB)),
    2,
    { name: 'Gig', dates },
    lookups(null)
  );
  expect(lost.problems).toEqual([
    'no pinpoint of the account lists it (GET /v3.0/events?pinpoint=)',
  ]);
});

test('coordinates go into the component or the JSON the mapping reads, and map back', async () => {
  const remote = { name: 'Pier', latitude: 47.21, longitude: -1.56, address: '2 Quai' };
  const inComponent = await invert(planFields(venue, lookup(modelsB)), 5, remote, lookups());
  expect(inComponent.data).toEqual({
    info: { position: { latitude: 47.21, longitude: -1.56 }, street: '2 Quai' },
    meta: { topics: [] },
  });
  const json: Mapping = {
    contentType: 'api::venue.venue',
    resource: 'pinpoint',
    fields: { name: 'heading', coordinates: 'location' },
  };
  const inJson = await invert(planFields(json, lookup(modelsB)), 5, remote, lookups());
  expect(inJson.data).toEqual({ heading: 'Pier', location: { lat: 47.21, lng: -1.56 } });
  const outcome = await mapEntry(json, inJson.data, context(modelsB));
  expect(outcome).toMatchObject({ payload: { name: 'Pier', latitude: 47.21, longitude: -1.56 } });
});
