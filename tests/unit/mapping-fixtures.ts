/**
 * Two invented content models, in the shape `strapi.getModel(uid)` returns, so the mapping is
 * proven on field names nobody chose for it. Model A: places / happenings / icons / tours.
 * Model B: venues / shows / pin types / collections, with other names and other structures
 * (JSON GeoJSON, nested components, start/end fields on the entry, a multiple media field).
 */
import type { Mapping } from '../../server/src/config/types';
import type {
  MappingContext,
  SchemaModel,
  StrapiSchemaLookup,
} from '../../server/src/mapping/types';

// What Strapi returns carries its uid too; the plugin reads the rest (SchemaModel).
type Model = SchemaModel & { uid: string; kind?: string };
const ct = (uid: string, attributes: SchemaModel['attributes'], localized = false): Model => ({
  uid,
  kind: 'collectionType',
  modelType: 'contentType',
  attributes: { ...attributes, locale: { type: 'string', private: !localized } },
  pluginOptions: localized ? { i18n: { localized: true } } : {},
});
const comp = (uid: string, attributes: SchemaModel['attributes'], displayName?: string): Model => ({
  uid,
  modelType: 'component',
  attributes,
  ...(displayName ? { info: { displayName } } : {}),
});

export const modelsA: Record<string, SchemaModel> = {
  'api::place.place': ct(
    'api::place.place',
    {
      title: { type: 'string', required: true },
      body: { type: 'blocks' },
      address: { type: 'text' },
      geo: { type: 'component', component: 'shared.geo', repeatable: false },
      keywords: { type: 'relation', relation: 'manyToMany', target: 'api::keyword.keyword' },
      cover: { type: 'media', multiple: false, allowedTypes: ['images'] },
      credits: { type: 'string' },
      icon: {
        type: 'relation',
        relation: 'manyToOne',
        target: 'api::icon.icon',
        inversedBy: 'places',
      },
      tours: { type: 'relation', relation: 'manyToMany', target: 'api::tour.tour' },
      sections: { type: 'dynamiczone', components: ['shared.geo'] },
      secret: { type: 'password' },
    },
    true
  ),
  'api::keyword.keyword': ct('api::keyword.keyword', { name: { type: 'string' } }),
  'api::icon.icon': ct('api::icon.icon', {
    label: { type: 'string' },
    glyph: { type: 'media', multiple: false, allowedTypes: ['images'] },
  }),
  'api::happening.happening': ct(
    'api::happening.happening',
    {
      title: { type: 'string' },
      summary: { type: 'richtext' },
      slots: { type: 'component', component: 'shared.slot', repeatable: true },
      place: { type: 'relation', relation: 'manyToOne', target: 'api::place.place' },
      places: { type: 'relation', relation: 'manyToMany', target: 'api::place.place' },
    },
    true
  ),
  'api::tour.tour': ct('api::tour.tour', {
    name: { type: 'string' },
    intro: { type: 'text' },
    stops: { type: 'relation', relation: 'manyToMany', target: 'api::place.place' },
  }),
  'shared.geo': comp(
    'shared.geo',
    { lat: { type: 'decimal' }, lng: { type: 'decimal' } },
    'Geo point'
  ),
  'shared.slot': comp('shared.slot', { from: { type: 'datetime' }, to: { type: 'datetime' } }),
};

export const modelsB: Record<string, SchemaModel> = {
  'api::venue.venue': ct('api::venue.venue', {
    heading: { type: 'string' },
    story: { type: 'richtext' },
    location: { type: 'json' },
    info: { type: 'component', component: 'venue.info', repeatable: false },
    tagline: { type: 'text' },
    gallery: { type: 'media', multiple: true, allowedTypes: ['images', 'videos'] },
    kind: { type: 'relation', relation: 'oneToOne', target: 'api::pin-type.pin-type' },
    collections: { type: 'relation', relation: 'manyToMany', target: 'api::collection.collection' },
    meta: { type: 'json' },
  }),
  'api::label.label': ct('api::label.label', { code: { type: 'uid' }, title: { type: 'string' } }),
  'api::pin-type.pin-type': ct('api::pin-type.pin-type', {
    code: { type: 'integer' },
    title: { type: 'string' },
    picture: { type: 'media', multiple: false },
  }),
  'api::show.show': ct('api::show.show', {
    headline: { type: 'string' },
    notes: { type: 'text' },
    startsAt: { type: 'datetime' },
    endsAt: { type: 'datetime' },
    day: { type: 'date' },
    times: { type: 'json' },
    venue: { type: 'relation', relation: 'manyToOne', target: 'api::venue.venue' },
    topics: { type: 'json' },
  }),
  'api::collection.collection': ct(
    'api::collection.collection',
    {
      label: { type: 'string' },
      about: { type: 'blocks' },
      venues: { type: 'relation', relation: 'manyToMany', target: 'api::venue.venue' },
    },
    true
  ),
  'venue.info': comp('venue.info', {
    street: { type: 'string' },
    position: { type: 'component', component: 'venue.point', repeatable: false },
    photo: { type: 'media', multiple: false },
    labels: { type: 'relation', relation: 'oneToMany', target: 'api::label.label' },
  }),
  'venue.point': comp('venue.point', {
    latitude: { type: 'float' },
    longitude: { type: 'float' },
    altitude: { type: 'float' },
  }),
};

/**
 * Model A mapped whole, one mapping per resource: the starting point of the mapping, populate,
 * validation and import tests. A test that needs a variant spreads one of these.
 */
type MappingOf<R extends Mapping['resource']> = Extract<Mapping, { resource: R }>;
export const mappingA: {
  place: MappingOf<'pinpoint'>;
  happening: MappingOf<'event'>;
  icon: MappingOf<'category'>;
  tour: MappingOf<'list'>;
} = {
  place: {
    contentType: 'api::place.place',
    resource: 'pinpoint',
    fields: {
      name: 'title',
      description: 'body',
      address: 'address',
      latitude: 'geo.lat',
      longitude: 'geo.lng',
      tags: 'keywords',
      media: 'cover',
      media_credits: 'credits',
      category: 'icon',
      lists: 'tours',
    },
  },
  happening: {
    contentType: 'api::happening.happening',
    resource: 'event',
    fields: {
      name: 'title',
      description: 'summary',
      dates: { path: 'slots', start: 'from', end: 'to' },
      pinpoint: 'place',
    },
  },
  icon: {
    contentType: 'api::icon.icon',
    resource: 'category',
    fields: { name: 'label', image: 'glyph' },
  },
  tour: {
    contentType: 'api::tour.tour',
    resource: 'list',
    fields: { name: 'name', description: 'intro', pinpoints: 'stops' },
  },
};

export const lookup =
  (models: Record<string, SchemaModel>): StrapiSchemaLookup =>
  (uid) =>
    models[uid];

export const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');

/** A context whose remote ids come from a table keyed by documentId. */
export function context(
  models: Record<string, SchemaModel>,
  ids: Record<string, number> = {},
  extra: Partial<MappingContext> = {}
): MappingContext & { reads: string[] } {
  const reads: string[] = [];
  return {
    getModel: lookup(models),
    remoteIdOf: async (ref) => ids[ref.documentId],
    readMedia: async (file) => {
      reads.push(file.url);
      return PNG;
    },
    maxMediaBytes: 5 * 1024 * 1024,
    reads,
    ...extra,
  };
}

export const file = (name: string, extra: Record<string, unknown> = {}) => ({
  id: 7,
  documentId: `f-${name}`,
  name,
  url: `/uploads/${name}`,
  mime: 'image/png',
  ext: '.png',
  size: 0.02,
  ...extra,
});
