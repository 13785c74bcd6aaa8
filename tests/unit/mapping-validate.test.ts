import { validateMappingFields, type StrapiSchemaLookup } from '../../server/src/mapping';
import type { Mapping } from '../../server/src/config/types';
import { lookup, mappingA, modelsA, modelsB } from './mapping-fixtures';

const A = lookup(modelsA);
/** Every mapping of a config, as services/mappings.ts checks them. */
const validateMappings = (mappings: Mapping[], getModel: StrapiSchemaLookup) =>
  mappings.flatMap((m, index) => validateMappingFields(m, getModel, { index, mappings }));
const B = lookup(modelsB);
const all = { ...modelsA, ...modelsB };

const goodA: Mapping[] = Object.values(mappingA);
const goodB: Mapping[] = [
  {
    contentType: 'api::venue.venue',
    resource: 'pinpoint',
    fields: {
      name: 'heading',
      description: 'story',
      address: 'info.street',
      coordinates: 'info.position',
      tags: { path: 'info.labels', key: 'title' },
      media: 'gallery',
      category: 'kind',
      lists: 'collections',
    },
  },
  {
    contentType: 'api::show.show',
    resource: 'event',
    fields: {
      name: 'headline',
      description: 'notes',
      dates: { start: 'startsAt', end: 'endsAt' },
      pinpoint: 'venue',
      tags: 'topics',
      media: 'venue.gallery',
      media_credits: 'venue.heading',
    },
  },
  {
    contentType: 'api::pin-type.pin-type',
    resource: 'category',
    fields: { name: 'title', image: 'picture' },
  },
  {
    contentType: 'api::collection.collection',
    resource: 'list',
    fields: { name: 'label', description: 'about', pinpoints: 'venues' },
  },
];

describe('validateMappingFields', () => {
  it('accepts complete mappings of both models', () => {
    expect(validateMappings(goodA, A)).toEqual([]);
    expect(validateMappings(goodB, B)).toEqual([]);
    expect(
      validateMappingFields(
        { ...goodB[0], fields: { name: 'heading', coordinates: 'location' } } as Mapping,
        B
      )
    ).toEqual([]);
    expect(
      validateMappingFields(
        { ...goodB[1], fields: { name: 'headline', dates: 'day', pinpoint: 'venue' } } as Mapping,
        B
      )
    ).toEqual([]);
    expect(
      validateMappingFields(
        { ...goodB[1], fields: { name: 'headline', dates: 'times', pinpoint: 'venue' } } as Mapping,
        B
      )
    ).toEqual([]);
  });

  it('names a missing attribute in a component', () => {
    const m = { ...goodA[0], fields: { ...goodA[0].fields, latitude: 'geo.latitude' } } as Mapping;
    expect(validateMappingFields(m, A, { index: 0 })).toEqual([
      "mappings[0].fields.latitude: 'geo.latitude' — 'geo' has no attribute 'latitude' in component shared.geo",
    ]);
    const top = { ...goodA[0], fields: { ...goodA[0].fields, name: 'titel' } } as Mapping;
    expect(validateMappingFields(top, A)).toEqual([
      "mappings[0].fields.name: 'titel' — api::place.place has no attribute 'titel'",
    ]);
  });

  it('a relation must point at a content type mapped to the right resource', () => {
    expect(validateMappings([goodA[1]], A)).toEqual([
      "mappings[0].fields.pinpoint: 'place' is a relation to api::place.place, which no mapping sends to pinpoint",
    ]);
    const wrong = [...goodA];
    wrong[1] = { ...goodA[1], fields: { ...goodA[1].fields, pinpoint: 'places' } } as Mapping;
    expect(validateMappings(wrong, A)).toEqual([
      "mappings[1].fields.pinpoint: 'places' is a to-many relation; one pinpoint is needed",
    ]);
  });

  it('refuses the wrong kind of attribute for a field, with a hint', () => {
    const m = {
      ...goodA[0],
      fields: {
        ...goodA[0].fields,
        name: 'cover',
        address: 'icon',
        media: 'title',
        description: 'geo',
        media_credits: 'secret',
      },
    } as Mapping;
    expect(validateMappingFields(m, A, { index: 2, mappings: goodA })).toEqual([
      "mappings[2].fields.name: 'cover' is a media field, a string is needed",
      "mappings[2].fields.description: 'geo' is a component (shared.geo), a string is needed: pick one of its fields, e.g. 'geo.lat'",
      "mappings[2].fields.address: 'icon' is a relation to api::icon.icon, a string is needed: pick one of its fields, e.g. 'icon.label'",
      "mappings[2].fields.media: 'title' is a string field, a media field is needed",
      "mappings[2].fields.media_credits: 'secret' is a password field, passwords are never sent",
    ]);
  });

  it('refuses paths through repeatable values where one value is needed', () => {
    const m = { ...goodA[1], fields: { ...goodA[1].fields, name: 'slots.from' } } as Mapping;
    expect(validateMappingFields(m, A, { mappings: goodA })).toEqual([
      "mappings[0].fields.name: 'slots.from' is a datetime field, a string is needed",
    ]);
    const n = { ...goodA[3], fields: { ...goodA[3].fields, name: 'stops.title' } } as Mapping;
    expect(validateMappingFields(n, A, { mappings: goodA, index: 3 })).toEqual([
      "mappings[3].fields.name: 'stops.title' goes through a relation to api::place.place 'stops', which gives several values; one is needed",
    ]);
  });

  it('coordinates: dynamic zones are not supported, components need lat/lng, bare text fields are allowed (JSON text)', () => {
    const dz = {
      contentType: 'api::place.place',
      resource: 'pinpoint',
      fields: { name: 'title', coordinates: 'sections' },
    } as Mapping;
    expect(validateMappingFields(dz, A)).toEqual([
      "mappings[0].fields.coordinates: 'sections' is a dynamic zone; dynamic zones are not supported for coordinates (use a component or a JSON field)",
    ]);
    const through = { ...dz, fields: { name: 'title', coordinates: 'sections.lat' } } as Mapping;
    expect(validateMappingFields(through, A)[0]).toMatch(
      /'sections' is a dynamic zone; paths cannot go through dynamic zones/
    );
    const slot = {
      contentType: 'api::happening.happening',
      resource: 'pinpoint',
      fields: { name: 'title', coordinates: 'slots' },
    } as Mapping;
    expect(validateMappingFields(slot, A)).toEqual([
      "mappings[0].fields.coordinates: 'slots' is a repeatable component; one position is needed",
      "mappings[0].fields.coordinates: 'slots' is component shared.slot, which has no lat/latitude and lng/lon/longitude attributes; map latitude and longitude separately instead",
    ]);
  });

  it('required fields per resource, and coordinates xor latitude/longitude', () => {
    const problems = validateMappings(
      [
        {
          contentType: 'api::place.place',
          resource: 'pinpoint',
          fields: { description: 'body' },
        } as unknown as Mapping,
        {
          contentType: 'api::happening.happening',
          resource: 'event',
          fields: {},
        } as unknown as Mapping,
        {
          contentType: 'api::icon.icon',
          resource: 'category',
          fields: { image: 'glyph' },
        } as unknown as Mapping,
        { contentType: 'api::tour.tour', resource: 'list', fields: {} } as unknown as Mapping,
        {
          contentType: 'api::venue.venue',
          resource: 'pinpoint',
          fields: { name: 'heading', coordinates: 'location', latitude: 'info.position.latitude' },
        } as unknown as Mapping,
      ],
      lookup(all)
    );
    expect(problems).toEqual([
      'mappings[0].fields.name: is required for pinpoint and not mapped',
      'mappings[0].fields.latitude: is required for pinpoint (or map coordinates) and not mapped',
      'mappings[0].fields.longitude: is required for pinpoint (or map coordinates) and not mapped',
      'mappings[1].fields.name: is required for event and not mapped',
      'mappings[1].fields.dates: is required for event and not mapped',
      'mappings[1].fields.pinpoint: is required for event and not mapped',
      'mappings[2].fields.name: is required for category and not mapped',
      'mappings[3].fields.name: is required for list and not mapped',
      'mappings[4].fields.coordinates: map either coordinates or latitude + longitude, not both',
    ]);
  });

  it('unknown fields, unknown content types and bad sources', () => {
    expect(
      validateMappingFields(
        { contentType: 'api::nope.nope', resource: 'list', fields: { name: 'x' } } as Mapping,
        A
      )
    ).toEqual(['mappings[0].contentType: "api::nope.nope" is not a content type of this Strapi']);
    const m = {
      contentType: 'api::tour.tour',
      resource: 'list',
      fields: { name: 'name', pinpoint: 'stops', description: 42 },
    } as unknown as Mapping;
    expect(validateMappingFields(m, A, { mappings: goodA })).toEqual([
      "mappings[0].fields.pinpoint: list has no field 'pinpoint' (fields: name, description, pinpoints)",
      "mappings[0].fields.description: must be a path such as 'title' or { path: 'title', default: … }, got 42",
    ]);
  });

  it('dates: keys must exist in the component, start/end keys do not apply to a single field', () => {
    const keys = {
      ...goodA[1],
      fields: { ...goodA[1].fields, dates: { path: 'slots', start: 'begin', end: 'to' } },
    } as Mapping;
    expect(validateMappingFields(keys, A, { mappings: goodA })).toEqual([
      "mappings[0].fields.dates: 'slots' is a repeatable component (shared.slot), which has no attribute 'begin' for the start",
    ]);
    const single = {
      ...goodB[1],
      fields: { ...goodB[1].fields, dates: { path: 'day', start: 'from' } },
    } as Mapping;
    expect(validateMappingFields(single, B, { mappings: goodB })[0]).toMatch(
      /'day' is a single date field; start\/end keys apply to components/
    );
    const notDate = {
      ...goodB[1],
      fields: { ...goodB[1].fields, dates: { start: 'venue', end: 'endsAt' } },
    } as Mapping;
    expect(validateMappingFields(notDate, B, { mappings: goodB })).toEqual([
      "mappings[0].fields.dates: start 'venue' is a relation to api::venue.venue; a date, datetime or ISO 8601 text is needed",
    ]);
    const relation = { ...goodB[1], fields: { ...goodB[1].fields, dates: 'venue' } } as Mapping;
    expect(validateMappingFields(relation, B, { mappings: goodB })).toEqual([
      "mappings[0].fields.dates: 'venue' is a relation to api::venue.venue, which has no attribute 'start' for the start",
    ]);
  });

  it('tags: the key must exist on the target', () => {
    const m = {
      ...goodB[0],
      fields: { ...goodB[0].fields, tags: { path: 'info.labels', key: 'label' } },
    } as Mapping;
    expect(validateMappingFields(m, B, { mappings: goodB })).toEqual([
      "mappings[0].fields.tags: 'info.labels' points to api::label.label, which has no attribute 'label'",
    ]);
    const bad = { ...goodB[0], fields: { ...goodB[0].fields, tags: 'gallery' } } as Mapping;
    expect(validateMappingFields(bad, B, { mappings: goodB })).toEqual([
      "mappings[0].fields.tags: 'gallery' is a media field; tags need a text, a JSON list of strings, or a relation",
    ]);
  });

  it('with a transform, paths unknown to the schema are allowed (the transform may add them)', () => {
    const m = {
      ...goodA[2],
      fields: { name: 'computedName' },
      transform: (e) => e,
    } as Mapping;
    expect(validateMappingFields(m, A)).toEqual([]);
    const still = { ...goodA[2], fields: { name: 'glyph' }, transform: (e) => e } as Mapping;
    expect(validateMappingFields(still, A)).toEqual([
      "mappings[0].fields.name: 'glyph' is a media field, a string is needed",
    ]);
  });
});
