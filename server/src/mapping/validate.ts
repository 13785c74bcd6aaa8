import { LAT_KEYS, LNG_KEYS } from './coordinates';
import { datesSpecOf, isDatesSpecSource } from './dates';
import {
  normalizeSource,
  NUMBER_TYPES,
  TEXT_TYPES,
  tryResolvePath,
  unknownToSchema,
  type PathStep,
  type ResolvedPath,
} from './paths';
import { tagKeyFor } from './tags';
import { FIELD_SPECS, type Mapping, type ResourceKind, type StrapiSchemaLookup } from './types';

const TEXT = new Set([...TEXT_TYPES, ...NUMBER_TYPES]);
const NUMBER = new Set([...NUMBER_TYPES, 'string']);
const DATE = new Set(['date', 'datetime', 'timestamp', 'string', 'text', 'json']);
const TAG_SCALARS = new Set(['string', 'text', 'enumeration', 'json']);

function describe(step: PathStep): string {
  switch (step.kind) {
    case 'component':
      return `a ${step.many ? 'repeatable ' : ''}component (${step.target})`;
    case 'relation':
      return `a relation to ${step.target}`;
    case 'dynamiczone':
      return 'a dynamic zone';
    default:
      return `a ${step.attr.type} field`;
  }
}

const isPathSource = (source: unknown) =>
  typeof source === 'string' || typeof (source as { path?: unknown }).path === 'string';

const SYSTEM_ATTRIBUTE =
  /^(id|documentId|locale|localizations|(created|updated|published)At|(created|updated)By)$/;

/** Problems of a mapping's field map against the content models, for the developer of config/plugins. */
export function validateMappingFields(
  mapping: Mapping,
  getModel: StrapiSchemaLookup,
  /** `index`: the mapping's position in the config; `mappings`: all of them, for relation targets */
  opts: { index?: number; mappings?: Mapping[] } = {}
): string[] {
  const at = `mappings[${opts.index ?? 0}]`;
  const problems: string[] = [];
  const uid = mapping.contentType;
  const specs = FIELD_SPECS[mapping.resource];
  if (!getModel(uid))
    return [`${at}.contentType: ${JSON.stringify(uid)} is not a content type of this Strapi`];
  const fields = mapping.fields as unknown as Record<string, unknown>;

  const problem = (field: string, text: string) => problems.push(`${at}.fields.${field}: ${text}`);
  const resolve = (field: string, path: string) =>
    tryResolvePath(uid, path, getModel, (reason) => {
      if (!unknownToSchema(mapping, reason)) problem(field, `'${path}' — ${reason}`);
    });
  const mappedTo = (target: string, resource: ResourceKind): boolean | undefined =>
    opts.mappings?.some((m) => m.contentType === target && m.resource === resource);

  for (const [field, source] of Object.entries(fields)) {
    if (source === undefined || source === null) continue;
    const fail = (text: string) => problem(field, text);
    const expect = specs[field];
    if (!expect) {
      fail(
        `${mapping.resource} has no field '${field}' (fields: ${Object.keys(specs).join(', ')})`
      );
      continue;
    }
    if (expect.kind === 'dates') {
      validateDates(source, getModel, fail, (path) => resolve(field, path));
      continue;
    }
    if (!isPathSource(source)) {
      fail(
        `must be a path such as 'title' or { path: 'title', default: … }, got ${JSON.stringify(source)}`
      );
      continue;
    }
    const { path } = normalizeSource(source);
    const resolved = resolve(field, path);
    if (!resolved) continue;
    const last = resolved.last;
    const inJson = resolved.jsonRest.length > 0 || last.kind === 'json';
    // A repeatable, a to-many relation or multiple media before the end gives several values.
    const many = resolved.steps.slice(0, -1).find((s) => s.many);
    const manyNote = many
      ? `'${path}' goes through ${describe(many)} '${many.name}', which gives several values; one is needed`
      : undefined;

    switch (expect.kind) {
      case 'text':
      case 'html':
      case 'number': {
        if (inJson) break;
        const ok =
          expect.kind === 'number'
            ? NUMBER.has(last.attr.type)
            : TEXT.has(last.attr.type) || (expect.kind === 'html' && last.attr.type === 'blocks');
        if (!ok) {
          let need = expect.kind === 'number' ? 'a number is needed' : 'a string is needed';
          if (last.kind === 'relation' || last.kind === 'component') {
            const attrs = Object.keys(getModel(last.target as string)?.attributes ?? {});
            need += `: pick one of its fields, e.g. '${path}.${attrs.find((a) => !SYSTEM_ATTRIBUTE.test(a)) ?? 'name'}'`;
          }
          if (last.attr.type === 'password') need = 'passwords are never sent';
          fail(`'${path}' is ${describe(last)}, ${need}`);
        } else if (manyNote) fail(manyNote);
        break;
      }
      case 'coordinates': {
        if (last.kind === 'dynamiczone') {
          fail(
            `'${path}' is a dynamic zone; dynamic zones are not supported for coordinates (use a component or a JSON field)`
          );
        } else if (last.kind === 'component') {
          if (last.many) fail(`'${path}' is a repeatable component; one position is needed`);
          const attrs = Object.keys(getModel(last.target as string)?.attributes ?? {}).map((k) =>
            k.toLowerCase()
          );
          const some = (keys: string[]) => attrs.some((a) => keys.includes(a));
          if (!(some(['type']) && some(['coordinates'])) && !(some(LAT_KEYS) && some(LNG_KEYS)))
            fail(
              `'${path}' is component ${last.target}, which has no lat/latitude and lng/lon/longitude attributes; map latitude and longitude separately instead`
            );
        } else if (!inJson && !['string', 'text'].includes(last.attr.type))
          fail(
            `'${path}' is ${describe(last)}; coordinates need a component or a JSON field holding {lat, lng} or a GeoJSON Point`
          );
        if (manyNote) fail(manyNote);
        break;
      }
      case 'tags': {
        if (inJson) break;
        if (last.kind === 'relation' || last.kind === 'component') {
          const key = tagKeyFor(resolved, source, getModel);
          if (!key)
            fail(
              `'${path}' points to ${last.target}, which has no text attribute to use as tag; set { path: '${path}', key: '<attribute>' }`
            );
          else if (!getModel(last.target as string)?.attributes[key])
            fail(`'${path}' points to ${last.target}, which has no attribute '${key}'`);
        } else if (!TAG_SCALARS.has(last.attr.type))
          fail(
            `'${path}' is ${describe(last)}; tags need a text, a JSON list of strings, or a relation`
          );
        break;
      }
      case 'media':
        if (last.kind !== 'media' || resolved.jsonRest.length > 0)
          fail(`'${path}' is ${describe(last)}, a media field is needed`);
        break;
      case 'relation': {
        if (last.kind !== 'relation' || resolved.jsonRest.length > 0) {
          fail(
            `'${path}' is ${describe(last)}; a relation to a content type mapped to ${expect.resource} is needed`
          );
          break;
        }
        if (mappedTo(last.target as string, expect.resource) === false)
          fail(
            `'${path}' is a relation to ${last.target}, which no mapping sends to ${expect.resource}`
          );
        if (expect.single && (last.many || many))
          fail(
            `'${path}' ${last.many ? 'is a to-many relation' : `goes through '${(many as PathStep).name}', which gives several values`}; one ${expect.resource} is needed`
          );
        break;
      }
    }
  }

  const has = (f: string) => fields[f] != null;
  for (const f of ['name', ...(mapping.resource === 'event' ? ['dates', 'pinpoint'] : [])])
    if (!has(f)) problem(f, `is required for ${mapping.resource} and not mapped`);
  if (mapping.resource === 'pinpoint') {
    if (has('coordinates') && (has('latitude') || has('longitude')))
      problem('coordinates', 'map either coordinates or latitude + longitude, not both');
    else if (!has('coordinates'))
      for (const f of ['latitude', 'longitude'])
        if (!has(f)) problem(f, 'is required for pinpoint (or map coordinates) and not mapped');
  }
  return problems;
}

function validateDates(
  source: unknown,
  getModel: StrapiSchemaLookup,
  fail: (text: string) => void,
  resolve: (path: string) => ResolvedPath | undefined
) {
  const isSpec = isDatesSpecSource(source);
  if (!isSpec && !isPathSource(source)) {
    fail(`must be a path, { path, start, end } or { start, end }, got ${JSON.stringify(source)}`);
    return;
  }
  const spec = datesSpecOf(source);
  const explicitEnd = isSpec && typeof source.end === 'string';
  const checkDateAttr = (path: string, label: string) => {
    const r = resolve(path);
    if (r && r.jsonRest.length === 0 && !DATE.has(r.last.attr.type))
      fail(
        `${label} '${path}' is ${describe(r.last)}; a date, datetime or ISO 8601 text is needed`
      );
  };
  if (spec.path === undefined) {
    // Start and end are fields of the entry itself: one range per entry.
    checkDateAttr(spec.start, 'start');
    if (explicitEnd) checkDateAttr(spec.end, 'end');
    return;
  }
  const container = resolve(spec.path);
  if (!container) return;
  const last = container.last;
  if (container.jsonRest.length > 0 || last.kind === 'json') return;
  if (last.kind === 'component' || last.kind === 'relation') {
    const attrs = getModel(last.target as string)?.attributes ?? {};
    const check = (key: string, label: string) => {
      const attr = attrs[key.split('.')[0]];
      if (!attr)
        fail(
          `'${spec.path}' is ${describe(last)}, which has no attribute '${key}' for the ${label}`
        );
      else if (!key.includes('.') && !DATE.has(attr.type))
        fail(
          `${label} '${spec.path}.${key}' is a ${attr.type} field; a date, datetime or ISO 8601 text is needed`
        );
    };
    check(spec.start, 'start');
    if (explicitEnd || attrs[spec.end]) check(spec.end, 'end');
    return;
  }
  if (last.kind === 'scalar') {
    if (!DATE.has(last.attr.type))
      fail(
        `'${spec.path}' is ${describe(last)}; a date, datetime, a repeatable component or JSON of ranges is needed`
      );
    else if (isSpec)
      fail(
        `'${spec.path}' is a single ${last.attr.type} field; start/end keys apply to components, relations or JSON (use { start: '${spec.path}', end: '<end field>' } for two fields)`
      );
    return;
  }
  fail(
    `'${spec.path}' is ${describe(last)}; dates need a repeatable component, JSON ranges, or date fields`
  );
}
