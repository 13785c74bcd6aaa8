import { MappingError } from './errors';
import { isBlank, itemsOf, show, single, toNumber } from './values';

export interface Position {
  latitude: number;
  longitude: number;
  altitude?: number;
}

export const LAT_KEYS = ['lat', 'latitude'];
export const LNG_KEYS = ['lng', 'lon', 'long', 'longitude'];
export const ALT_KEYS = ['alt', 'altitude', 'elevation'];

const LIMIT = { latitude: 90, longitude: 180 };

/** `value` when within [-90, 90] (latitude) or [-180, 180] (longitude); `field` names the field at fault. */
export function checkInRange(axis: keyof typeof LIMIT, value: number, field: string = axis) {
  if (!(value >= -LIMIT[axis] && value <= LIMIT[axis]))
    throw new MappingError(
      field,
      `${field === axis ? '' : `${axis} `}${value} is outside [-${LIMIT[axis]}, ${LIMIT[axis]}]`
    );
  return value;
}

/** Blanks (' ', [], [null]) count as a key left empty, as toNumber reads them. */
const filled = (value: unknown) => itemsOf(value).some((v) => !isBlank(v));

/** Map plugins and editors spell the keys differently; case is not meaningful to them either. */
function pick(obj: Record<string, unknown>, keys: string[]) {
  const lower = new Map(Object.keys(obj).map((k) => [k.toLowerCase(), k]));
  const key = keys.map((k) => lower.get(k)).find((k) => k && filled(obj[k]));
  return key === undefined ? undefined : { key, value: obj[key] };
}

const SHAPES = '{lat, lng}, {latitude, longitude}, {lat, lon} or a GeoJSON Point';

function fromGeoJson(point: Record<string, unknown>, field: string, path: string): Position {
  const coords = point.coordinates;
  if (!Array.isArray(coords) || coords.length < 2)
    throw new MappingError(
      field,
      `the GeoJSON Point at '${path}' has no [longitude, latitude] coordinates`
    );
  // GeoJSON (RFC 7946) orders positions longitude first.
  const [longitude, latitude, altitude] = coords
    .slice(0, 3)
    .map((c, i) => toNumber(c, field, `${path}.coordinates[${i}]`));
  if (latitude === undefined || longitude === undefined)
    throw new MappingError(field, `the GeoJSON Point at '${path}' has empty coordinates`);
  return { latitude, longitude, ...(altitude !== undefined ? { altitude } : {}) };
}

/**
 * One field holding a position. Bare pairs ([45.2, 5.7], "45.2, 5.7") are refused: half the
 * world writes them lat-first, GeoJSON lng-first, and a swapped pair is still a valid place,
 * so guessing would put pinpoints silently in the wrong spot.
 */
export function parseCoordinates(raw: unknown, field: string, path: string): Position | undefined {
  const fail = (reason: string) => new MappingError(field, reason);
  const barePair =
    Array.isArray(raw) &&
    raw.length > 0 &&
    raw.every(
      (v) =>
        typeof v === 'number' ||
        (typeof v === 'string' && v.trim() !== '' && !Number.isNaN(Number(v)))
    );
  let value = barePair ? raw : single(raw, field, path);
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'string') {
    const text = value.trim();
    if (text === '') return undefined;
    if (text.startsWith('{') || text.startsWith('[')) {
      try {
        value = JSON.parse(text);
      } catch {
        throw fail(`'${path}' holds text that is not valid JSON`);
      }
    } else
      throw fail(
        `'${path}' holds the text ${show(text)}; a coordinate pair in text is ambiguous (lat,lng or lng,lat?) — use ${SHAPES}`
      );
  }
  if (Array.isArray(value))
    throw fail(
      `'${path}' holds a bare array ${JSON.stringify(value).slice(0, 40)}, which is ambiguous (lat,lng or lng,lat?) — use ${SHAPES}`
    );
  if (typeof value !== 'object' || value === null)
    throw fail(`expected ${SHAPES} at '${path}', got ${show(value)}`);
  const obj = value as Record<string, unknown>;
  const geometry = (obj.type === 'Feature' ? obj.geometry : undefined) as typeof obj | undefined;
  let position: Position;
  if (obj.type === 'Point') position = fromGeoJson(obj, field, path);
  else if (geometry?.type === 'Point') position = fromGeoJson(geometry, field, `${path}.geometry`);
  else {
    const lat = pick(obj, LAT_KEYS);
    const lng = pick(obj, LNG_KEYS);
    if (!lat && !lng) {
      // An empty map component (all keys null) means "no position yet", not a broken one.
      const hasAnyValue = Object.entries(obj).some(
        ([k, v]) => k !== 'id' && k !== '__component' && filled(v)
      );
      if (!hasAnyValue) return undefined;
      throw fail(`no latitude/longitude in the object at '${path}' (expected ${SHAPES})`);
    }
    if (!lat) throw fail(`no latitude in the object at '${path}' (found '${lng?.key}')`);
    if (!lng) throw fail(`no longitude in the object at '${path}' (found '${lat.key}')`);
    const latitude = toNumber(lat.value, field, `${path}.${lat.key}`) as number;
    const longitude = toNumber(lng.value, field, `${path}.${lng.key}`) as number;
    const alt = pick(obj, ALT_KEYS);
    const altitude = alt ? toNumber(alt.value, field, `${path}.${alt.key}`) : undefined;
    position = { latitude, longitude, ...(altitude !== undefined ? { altitude } : {}) };
  }
  checkInRange('latitude', position.latitude, field);
  checkInRange('longitude', position.longitude, field);
  return position;
}
