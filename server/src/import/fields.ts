import type { Mapping } from '../config/types';
import { datesSpecOf } from '../mapping/dates';
import { LAT_KEYS, LNG_KEYS } from '../mapping/coordinates';
import {
  normalizeSource,
  NUMBER_TYPES,
  PathError,
  resolvePath,
  TEXT_TYPES,
  type PathStep,
  type ResolvedPath,
} from '../mapping/paths';
import { tagKeyFor } from '../mapping/tags';
import type { StrapiSchemaLookup } from '../mapping/types';
import type { NotImportableField } from '../../../shared/contracts/import';

/**
 * Which mapped fields the import can write back, and where: the mapping's own paths, resolved
 * against the content models once per import. A field whose path cannot be written is named
 * with the reason; nothing is guessed.
 */

export type TextFormat = 'markdown' | 'blocks' | 'text';

export type FieldTarget =
  | { kind: 'text'; field: string; at: ResolvedPath }
  | { kind: 'html'; field: string; at: ResolvedPath; format: TextFormat }
  | { kind: 'number'; field: string; at: ResolvedPath }
  | { kind: 'coordinates'; field: string; at: ResolvedPath; lat: string; lng: string }
  | { kind: 'tags'; field: string; at: ResolvedPath; style: 'list' | 'text' }
  | {
      kind: 'tagEntries';
      field: string;
      at: ResolvedPath;
      target: string;
      key: string;
      component: boolean;
    }
  | { kind: 'media'; field: string; at: ResolvedPath }
  | { kind: 'relation'; field: string; at: ResolvedPath; target: string; many: boolean }
  | {
      kind: 'dates';
      field: string;
      /** where the ranges go: a repeatable component or JSON list (many), else one range */
      at: ResolvedPath | null;
      many: boolean;
      start: ResolvedPath | string;
      end: ResolvedPath | string;
    };

export interface FieldPlan {
  mapping: Mapping;
  /** set when no object of this mapping can be imported */
  blocked: string | null;
  targets: FieldTarget[];
  notImportable: NotImportableField[];
}

const DATE_TYPES = ['datetime', 'date', 'string', 'text'];

/** Import writes the entry's own fields and components: every step before the last must be one. */
function containerProblem(at: ResolvedPath): string | null {
  for (const step of at.steps.slice(0, -1)) {
    if (step.kind === 'relation')
      return `'${step.name}' is a relation: the import writes the entry's own fields and components, not a related entry's`;
    if (step.kind === 'media')
      return `'${step.name}' is a media field: its file's own fields are not written`;
    if (step.many)
      return `'${step.name}' holds several items: which of them would receive the value is not known`;
  }
  return null;
}

const isJson = (at: ResolvedPath) => at.last.kind === 'json';
const isScalar = (at: ResolvedPath, types: string[]) =>
  at.last.kind === 'scalar' && types.includes(String(at.last.attr.type));

/** The keys of a component's coordinates, as parseCoordinates reads them. */
function componentKeys(
  step: PathStep,
  getModel: StrapiSchemaLookup
): { lat: string; lng: string } | null {
  const attrs = Object.keys(getModel(step.target ?? '')?.attributes ?? {});
  const find = (keys: string[]) => attrs.find((a) => keys.includes(a.toLowerCase()));
  const lat = find(LAT_KEYS);
  const lng = find(LNG_KEYS);
  return lat && lng ? { lat, lng } : null;
}

const READ_ONLY: Record<string, string> = {
  altitude: 'the remote does not answer it (a request field only)',
  lists: "a pinpoint's lists are written from the lists' side, when they are imported",
};

/** What the import can write of each mapped field of `mapping`. */
export function planFields(mapping: Mapping, getModel: StrapiSchemaLookup): FieldPlan {
  const plan: FieldPlan = { mapping, blocked: null, targets: [], notImportable: [] };
  if (mapping.transform && !mapping.inverse)
    plan.blocked =
      "the mapping has a transform and no inverse: what the transform computes cannot be read backwards (add `inverse` to the mapping, see the README's Mappings)";
  const fields = (mapping.fields ?? {}) as unknown as Record<string, unknown>;
  const uid = mapping.contentType;
  const skip = (field: string, path: string | null, reason: string) =>
    plan.notImportable.push({ field, path, reason });

  for (const [field, source] of Object.entries(fields)) {
    if (source === undefined || source === null) continue;
    if (READ_ONLY[field]) {
      skip(field, normalizeSource(source as never).path || null, READ_ONLY[field]);
      continue;
    }
    const resolve = (path: string): ResolvedPath | null => {
      try {
        const at = resolvePath(uid, path, getModel);
        const problem = containerProblem(at);
        if (!problem) return at;
        skip(field, path, problem);
      } catch (err) {
        if (!(err instanceof PathError)) throw err;
        skip(field, path, err.reason);
      }
      return null;
    };

    if (field === 'dates') {
      const spec = datesSpecOf(source);
      const dateAt = (path: string) => {
        const at = resolve(path);
        if (!at || isJson(at) || isScalar(at, DATE_TYPES)) return at;
        skip(field, path, `'${at.last.name}' is a ${at.last.attr.type} field, not a date`);
        return null;
      };
      const { start, end } = spec;
      const at = spec.path === undefined ? null : resolve(spec.path);
      if (spec.path === undefined) {
        const [from, to] = [dateAt(start), dateAt(end)];
        if (from && to)
          plan.targets.push({ kind: 'dates', field, at: null, many: false, start: from, end: to });
      } else if (!at) continue;
      else if (isScalar(at, DATE_TYPES))
        plan.targets.push({ kind: 'dates', field, at: null, many: false, start: at, end: at });
      else if (at.last.kind !== 'component' && !isJson(at))
        skip(field, spec.path, `'${at.last.name}' is a ${at.last.attr.type} field, not dates`);
      else if (isJson(at)) plan.targets.push({ kind: 'dates', field, at, many: true, start, end });
      else if (start.includes('.') || end.includes('.'))
        skip(
          field,
          spec.path,
          'start and end keys inside the items must be plain keys to be written'
        );
      else {
        const attrs = getModel(at.last.target ?? '')?.attributes ?? {};
        const bad = [start, end].find(
          (k) => !attrs[k] || !DATE_TYPES.includes(String(attrs[k].type))
        );
        if (bad) skip(field, spec.path, `component ${at.last.target} has no date field '${bad}'`);
        else plan.targets.push({ kind: 'dates', field, at, many: at.last.many, start, end });
      }
      continue;
    }

    const { path } = normalizeSource(source as never);
    const at = resolve(path);
    if (!at) continue;
    const last = at.last;
    const wrongType = (what: string) =>
      skip(
        field,
        path,
        `'${last.name}' is a ${last.attr.type} field; ${what} cannot be written there`
      );

    switch (field) {
      case 'name':
      case 'address':
      case 'media_credits':
        if (isJson(at) || isScalar(at, TEXT_TYPES)) plan.targets.push({ kind: 'text', field, at });
        else wrongType('text');
        break;
      case 'description': {
        const blocks = isJson(at) || last.attr.type === 'blocks';
        const format = blocks ? 'blocks' : last.attr.type === 'richtext' ? 'markdown' : 'text';
        if (blocks || isScalar(at, TEXT_TYPES))
          plan.targets.push({ kind: 'html', field, at, format });
        else wrongType('a description');
        break;
      }
      case 'latitude':
      case 'longitude':
        if (isJson(at) || isScalar(at, NUMBER_TYPES))
          plan.targets.push({ kind: 'number', field, at });
        else wrongType('a number');
        break;
      case 'coordinates':
        if (isJson(at))
          plan.targets.push({ kind: 'coordinates', field, at, lat: 'lat', lng: 'lng' });
        else if (last.kind === 'component' && !last.many) {
          const keys = componentKeys(last, getModel);
          if (keys) plan.targets.push({ kind: 'coordinates', field, at, ...keys });
          else skip(field, path, `component ${last.target} has no latitude and longitude fields`);
        } else wrongType('coordinates');
        break;
      case 'tags': {
        if (isJson(at)) plan.targets.push({ kind: 'tags', field, at, style: 'list' });
        else if (isScalar(at, TEXT_TYPES))
          plan.targets.push({ kind: 'tags', field, at, style: 'text' });
        else if (last.kind === 'relation' || (last.kind === 'component' && last.many)) {
          const key = tagKeyFor(at, source, getModel);
          if (!key || key.includes('.'))
            skip(field, path, 'no text field of the related entries holds the tag');
          else
            plan.targets.push({
              kind: 'tagEntries',
              field,
              at,
              target: last.target ?? '',
              key,
              component: last.kind === 'component',
            });
        } else wrongType('tags');
        break;
      }
      case 'media':
      case 'image':
        if (last.kind === 'media') plan.targets.push({ kind: 'media', field, at });
        else wrongType('a file');
        break;
      case 'category':
      case 'pinpoint':
      case 'pinpoints':
        if (last.kind === 'relation' && last.target)
          plan.targets.push({ kind: 'relation', field, at, target: last.target, many: last.many });
        else wrongType('a relation');
        break;
      default:
        skip(field, path, 'not a field the remote answers');
    }
  }
  return plan;
}

/** Writes `value` at a resolved path into the entry's data, making the components and JSON on the way. */
export function put(data: Record<string, unknown>, at: ResolvedPath, value: unknown) {
  let obj = data;
  for (const step of at.steps.slice(0, -1)) {
    const inner = obj[step.name];
    obj[step.name] = inner && typeof inner === 'object' ? inner : {};
    obj = obj[step.name] as Record<string, unknown>;
  }
  if (!at.jsonRest.length) {
    obj[at.last.name] = value;
    return;
  }
  const json = obj[at.last.name];
  obj[at.last.name] = json && typeof json === 'object' ? json : {};
  let inner = obj[at.last.name] as Record<string, unknown>;
  for (const key of at.jsonRest.slice(0, -1)) {
    inner[key] = inner[key] && typeof inner[key] === 'object' ? inner[key] : {};
    inner = inner[key] as Record<string, unknown>;
  }
  inner[at.jsonRest[at.jsonRest.length - 1]] = value;
}
