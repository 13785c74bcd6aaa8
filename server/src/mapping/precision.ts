import { ALT_KEYS, LAT_KEYS, LNG_KEYS } from './coordinates';
import { normalizeSource, tryResolvePath } from './paths';
import type { Mapping, StrapiSchemaLookup } from './types';

/** A `decimal` attribute that a mapping reads coordinates (or an altitude) from. */
export interface DecimalSource {
  field: 'latitude' | 'longitude' | 'altitude' | 'coordinates';
  owner: string;
  attribute: string;
}

const NUMBER_FIELDS = ['latitude', 'longitude', 'altitude'] as const;
// The keys parseCoordinates reads: an `elevation` decimal is rounded as an `alt` one would be.
const IN_COORDINATES = new Set([...LAT_KEYS, ...LNG_KEYS, ...ALT_KEYS]);

/** Where a pinpoint mapping reads its position from `decimal` attributes (paths that do not resolve are validate.ts's business). */
export function decimalSourcesOf(mapping: Mapping, getModel: StrapiSchemaLookup): DecimalSource[] {
  if (mapping.resource !== 'pinpoint') return [];
  const found: DecimalSource[] = [];
  const lastOf = (field: DecimalSource['field']) => {
    const source = mapping.fields[field];
    const path = source == null ? '' : normalizeSource(source).path;
    return path ? tryResolvePath(mapping.contentType, path, getModel)?.last : undefined;
  };
  for (const field of NUMBER_FIELDS) {
    const last = lastOf(field);
    if (last?.attr.type === 'decimal')
      found.push({ field, owner: last.owner, attribute: last.name });
  }
  const last = lastOf('coordinates');
  if (last?.kind === 'component' && last.target)
    for (const [name, attr] of Object.entries(getModel(last.target)?.attributes ?? {}))
      if (attr?.type === 'decimal' && IN_COORDINATES.has(name.toLowerCase()))
        found.push({ field: 'coordinates', owner: last.target, attribute: name });
  return found;
}

/** Decimals a position needs to stay within about 10 cm. */
export const NEEDED_SCALE = 6;

export const precisionWarning = (contentType: string, source: DecimalSource, scale: number) =>
  `${contentType}: ${source.field} reads ${source.owner}.${source.attribute}, a decimal this database stores with ${scale} decimal${scale === 1 ? '' : 's'} ` +
  `(positions rounded to about ${scale >= 5 ? '1 m' : scale === 4 ? '10 m' : scale === 3 ? '100 m' : scale === 2 ? '1 km' : '10 km or more'}); ` +
  `make it a "float" attribute, or give its column ${NEEDED_SCALE} decimals or more (e.g. numeric(10,${NEEDED_SCALE}))`;
