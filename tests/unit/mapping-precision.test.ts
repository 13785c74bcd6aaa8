import { decimalSourcesOf } from '../../server/src/mapping/precision';
import type { Mapping } from '../../server/src/config/types';
import { lookup, modelsA } from './mapping-fixtures';

/** Which `decimal` columns a pinpoint mapping reads its position from (their scale rounds it). */
describe('decimalSourcesOf', () => {
  const models = {
    ...modelsA,
    'shared.point': {
      modelType: 'component',
      attributes: {
        Lat: { type: 'decimal' },
        lon: { type: 'float' },
        elevation: { type: 'decimal' },
        note: { type: 'decimal' },
      },
    },
    'api::spot.spot': {
      modelType: 'contentType',
      attributes: {
        title: { type: 'string' },
        point: { type: 'component', component: 'shared.point', repeatable: false },
      },
    },
  } as typeof modelsA;
  const spot: Mapping = {
    contentType: 'api::spot.spot',
    resource: 'pinpoint',
    fields: { name: 'title', coordinates: 'point' },
  };

  it("names each decimal key of a coordinates component that parseCoordinates reads, an elevation's too", () => {
    expect(decimalSourcesOf(spot, lookup(models))).toEqual([
      { field: 'coordinates', owner: 'shared.point', attribute: 'Lat' },
      { field: 'coordinates', owner: 'shared.point', attribute: 'elevation' },
    ]);
  });

  it('names the decimal attributes latitude and longitude read, and nothing for another resource', () => {
    const place: Mapping = {
      contentType: 'api::place.place',
      resource: 'pinpoint',
      fields: { name: 'title', latitude: 'geo.lat', longitude: 'geo.lng' },
    };
    expect(decimalSourcesOf(place, lookup(models))).toEqual([
      { field: 'latitude', owner: 'shared.geo', attribute: 'lat' },
      { field: 'longitude', owner: 'shared.geo', attribute: 'lng' },
    ]);
    expect(decimalSourcesOf({ ...place, resource: 'list' }, lookup(models))).toEqual([]);
  });
});
