import { canonicalJson } from '../../server/src/mapping/hash';
import {
  mapEntry,
  payloadHash,
  populateFor,
  relationTargets,
  type UpsertOutcome,
} from '../../server/src/mapping';
import type { Mapping } from '../../server/src/config/types';
import { context, lookup, mappingA, modelsA, modelsB } from './mapping-fixtures';

describe('populateFor', () => {
  it('model A: component true, media true, relations limited to documentId/locale and the tag key', () => {
    expect(populateFor(mappingA.place, lookup(modelsA))).toEqual({
      cover: true,
      // icon and tours are not localized: Strapi refuses 'locale' in their fields
      geo: true,
      icon: { fields: ['documentId'] },
      keywords: { fields: ['documentId', 'name'] },
      tours: { fields: ['documentId'] },
    });
  });

  it('model A event: repeatable component and relation', () => {
    const mapping: Mapping = {
      contentType: 'api::happening.happening',
      resource: 'event',
      fields: {
        name: 'title',
        dates: { path: 'slots', start: 'from', end: 'to' },
        pinpoint: 'place',
      },
    };
    expect(populateFor(mapping, lookup(modelsA))).toEqual({
      slots: true,
      place: { fields: ['documentId', 'locale'] },
    });
  });

  it('model B: nested components, relations inside components, fields read through relations, media through relations', () => {
    const venue: Mapping = {
      contentType: 'api::venue.venue',
      resource: 'pinpoint',
      fields: {
        name: 'heading',
        address: 'info.street',
        coordinates: 'info.position',
        media: 'info.photo',
        tags: { path: 'info.labels', key: 'title' },
        category: 'kind',
        media_credits: 'kind.title',
      },
    };
    expect(populateFor(venue, lookup(modelsB))).toEqual({
      info: {
        populate: { labels: { fields: ['documentId', 'title'] }, photo: true, position: true },
      },
      kind: { fields: ['documentId', 'title'] },
    });

    const show: Mapping = {
      contentType: 'api::show.show',
      resource: 'event',
      fields: {
        name: 'headline',
        dates: { start: 'startsAt', end: 'endsAt' },
        pinpoint: 'venue',
        media: 'venue.gallery',
        media_credits: 'venue.info.street',
      },
    };
    expect(populateFor(show, lookup(modelsB))).toEqual({
      venue: { fields: ['documentId'], populate: { gallery: true, info: true } },
    });
  });

  it('JSON and scalar paths need no populate; broken paths are left to the validator', () => {
    const mapping: Mapping = {
      contentType: 'api::venue.venue',
      resource: 'pinpoint',
      fields: {
        name: 'heading',
        coordinates: 'location.geometry',
        tags: 'meta.tags',
        address: 'nope.street',
      },
    };
    expect(populateFor(mapping, lookup(modelsB))).toEqual({});
  });

  it('a tag relation without key populates the default key of its target', () => {
    const mapping: Mapping = {
      contentType: 'api::venue.venue',
      resource: 'pinpoint',
      fields: { name: 'heading', coordinates: 'location', tags: 'info.labels' },
    };
    expect(populateFor(mapping, lookup(modelsB))).toEqual({
      info: { populate: { labels: { fields: ['code', 'documentId'] } } },
    });
  });
});

describe('relationTargets', () => {
  it('lists every relation hop a mapping reads', () => {
    const show: Mapping = {
      contentType: 'api::show.show',
      resource: 'event',
      fields: {
        name: 'headline',
        dates: 'day',
        pinpoint: 'venue',
        media_credits: 'venue.kind.title',
        tags: 'topics',
      },
    };
    expect(relationTargets(show, lookup(modelsB))).toEqual([
      { field: 'pinpoint', path: 'venue', target: 'api::venue.venue' },
      { field: 'media_credits', path: 'venue', target: 'api::venue.venue' },
      { field: 'media_credits', path: 'venue.kind', target: 'api::pin-type.pin-type' },
    ]);
  });

  it('model A place', () => {
    const m: Mapping = {
      contentType: 'api::place.place',
      resource: 'pinpoint',
      fields: {
        name: 'title',
        latitude: 'geo.lat',
        longitude: 'geo.lng',
        tags: 'keywords',
        category: 'icon',
      },
    };
    expect(relationTargets(m, lookup(modelsA)).map((t) => t.target)).toEqual([
      'api::keyword.keyword',
      'api::icon.icon',
    ]);
  });
});

describe('payloadHash', () => {
  const outcome = (payload: Record<string, unknown>, members?: number[]): UpsertOutcome => ({
    action: 'upsert',
    resource: 'pinpoint',
    payload,
    members,
    refs: [],
    unresolved: [],
  });

  it('does not depend on key order or member order', () => {
    const a = outcome(
      { name: 'x', latitude: 1, longitude: 2, media_file: { name: 'a', type: 'b', content: 'c' } },
      [3, 1, 2]
    );
    const b = outcome(
      { media_file: { content: 'c', type: 'b', name: 'a' }, longitude: 2, latitude: 1, name: 'x' },
      [2, 3, 1]
    );
    expect(payloadHash(a)).toBe(payloadHash(b));
    expect(payloadHash(a)).toMatch(/^[0-9a-f]{64}$/);
  });

  it('changes with any value, with membership, and with the resource', () => {
    const base = payloadHash(outcome({ name: 'x', tags: ['a', 'b'] }));
    expect(payloadHash(outcome({ name: 'x', tags: ['b', 'a'] }))).not.toBe(base);
    expect(payloadHash(outcome({ name: 'y', tags: ['a', 'b'] }))).not.toBe(base);
    expect(payloadHash(outcome({ name: 'x', tags: ['a', 'b'] }, []))).not.toBe(base);
    expect(payloadHash({ ...outcome({ name: 'x', tags: ['a', 'b'] }), resource: 'list' })).not.toBe(
      base
    );
  });

  it('ignores refs and unresolved, and is stable across runs of mapEntry', async () => {
    const m: Mapping = {
      contentType: 'api::tour.tour',
      resource: 'list',
      fields: { name: 'name', pinpoints: 'stops' },
    };
    const one = await mapEntry(
      m,
      { name: 'T', stops: [{ documentId: 'a' }, { documentId: 'b' }] },
      context(modelsA, { a: 1, b: 2 })
    );
    const two = await mapEntry(
      m,
      { stops: [{ documentId: 'b' }, { documentId: 'a' }], name: 'T' },
      context(modelsA, { a: 1, b: 2 })
    );
    expect(payloadHash(one as UpsertOutcome)).toBe(payloadHash(two as UpsertOutcome));
  });

  it('canonical JSON sorts keys at every depth and drops undefined', () => {
    expect(canonicalJson({ b: 1, a: { d: [1, { f: 1, e: undefined }], c: null } })).toBe(
      '{"a":{"c":null,"d":[1,{"f":1}]},"b":1}'
    );
  });
});
