import type { Mapping } from '../config/types';
import { LAT_KEYS, LNG_KEYS } from '../mapping/coordinates';
import { datesSpecOf } from '../mapping/dates';
import { FROM_HTML } from '../mapping/html';
import {
  normalizeSource,
  NUMBER_TYPES,
  PathError,
  resolvePath,
  TEXT_TYPES,
  type ResolvedPath,
} from '../mapping/paths';
import { tagKeyFor } from '../mapping/tags';
import type { StrapiSchemaLookup } from '../mapping/types';
import { toMsUtc } from '../remote/dates';
import type { ResourceKind } from '../remote/types';
import type { EntryKey } from '../sync/shared/types';
import type { NotImportableField } from '../../../shared/contracts/import';

/**
 * A mapping read backwards. planFields resolves, once per import, where each mapped field can be
 * written (a field whose path cannot be is named with the reason; nothing is guessed); invert
 * reads one remote object (its documented fields, as the inventory keeps them) into an entry's
 * data, and says what still needs the database or the network (related entries, files to
 * download, tag entries to find or create). Pure but for the lookups.
 */

export interface InverseLookups {
  /** the entry whose sync state holds this remote object, if any */
  ownerOf(resource: ResourceKind, remoteId: number): Promise<EntryKey | null>;
  /** a list's members as the inventory walk read them (`?list=`) */
  membersOf(listId: number): Promise<number[]>;
  /** an event's pinpoint as read with `?pinpoint=`; undefined: not read yet (dry run) */
  pinpointOf(eventId: number): Promise<number | null | undefined>;
  isLocalized(uid: string): boolean;
}

type Remote = Record<string, unknown>;
type Ref = { documentId: string; locale?: string };
type RelationTarget = FieldTarget & { at: ResolvedPath; target: string; many: boolean };

export interface Inverted {
  data: Record<string, unknown>;
  /** the related entries as the Document Service connects them; `words` say them in a dry run */
  relations: Array<RelationTarget & { refs: Ref[]; words: string[] }>;
  media: Array<{ field: string; at: ResolvedPath; url: string }>;
  tagEntries: Array<{ at: ResolvedPath; target: string; key: string; tags: string[] }>;
  /** why the object cannot be imported */
  problems: string[];
  /** what of it is left out */
  warnings: string[];
}

type Written = 'text' | 'html' | 'number' | 'coordinates' | 'tags' | 'tagEntries' | 'media';

export interface FieldTarget {
  kind: Written | 'dates' | 'relation';
  field: string;
  /** relations (connected by invert, through the lookups): where, and the related content type */
  at?: ResolvedPath;
  target?: string;
  many?: boolean;
  /** what the remote object gives the field, written into `out` */
  write?: (remote: Remote, out: Inverted) => void;
}

export interface FieldPlan {
  mapping: Mapping;
  /** set when no object of this mapping can be imported */
  blocked: string | null;
  targets: FieldTarget[];
  notImportable: NotImportableField[];
}

const DATE_TYPES = ['datetime', 'date', 'string', 'text'];

const READ_ONLY: Record<string, string> = {
  altitude: 'the remote does not answer it (a request field only)',
  lists: "a pinpoint's lists are written from the lists' side, when they are imported",
};

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

const text = (v: unknown): string | undefined =>
  typeof v === 'string' ? v : typeof v === 'number' ? String(v) : undefined;
const finite = (v: unknown): number | undefined =>
  typeof v === 'number' && Number.isFinite(v) ? v : undefined;
const outside = (axis: string, v: number) => {
  const max = axis === 'latitude' ? 90 : 180;
  return v < -max || v > max ? `${axis} ${v} is outside [-${max}, ${max}]` : undefined;
};

/** A date as the receiving attribute keeps it: a `date` field keeps the day only. */
const dateFor = (at: ResolvedPath, iso: string) =>
  at.last.attr.type === 'date' ? iso.slice(0, 10) : iso;

type Range = { start: string; end: string };

/**
 * The remote's dates, each range with an end (an instant ends where it starts): every range where
 * the field takes several, else the first with a warning.
 */
const writeDates =
  (many: boolean, write: (data: Remote, ranges: Range[]) => void) =>
  (remote: Remote, { data, problems, warnings }: Inverted) => {
    const ranges: Range[] = [];
    for (const r of (Array.isArray(remote.dates) ? remote.dates : []) as Array<Partial<Range>>) {
      try {
        const start = toMsUtc(String(r?.start ?? ''));
        ranges.push({ start, end: r?.end ? toMsUtc(String(r.end)) : start });
      } catch {
        problems.push(`a date range has no valid start (${JSON.stringify(r).slice(0, 80)})`);
      }
    }
    if (!ranges.length) {
      if (!problems.some((p) => p.startsWith('a date range'))) problems.push('it has no dates');
      return;
    }
    if (!many && ranges.length > 1)
      warnings.push(`only the first of its ${ranges.length} date ranges fits in 'dates'`);
    write(data, ranges);
  };

/** What the import can write of each mapped field of `mapping`. */
export function planFields(mapping: Mapping, getModel: StrapiSchemaLookup): FieldPlan {
  const plan: FieldPlan = { mapping, blocked: null, targets: [], notImportable: [] };
  if (mapping.transform && !mapping.inverse)
    plan.blocked =
      "the mapping has a transform and no inverse: what the transform computes cannot be read backwards (add `inverse` to the mapping, see the README's Mappings)";
  const fields = (mapping.fields ?? {}) as unknown as Record<string, unknown>;
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
        const at = resolvePath(mapping.contentType, path, getModel);
        const problem = containerProblem(at);
        if (!problem) return at;
        skip(field, path, problem);
      } catch (err) {
        if (!(err instanceof PathError)) throw err;
        skip(field, path, err.reason);
      }
      return null;
    };
    const add = (kind: FieldTarget['kind'], write: FieldTarget['write']) =>
      plan.targets.push({ kind, field, write });

    if (field === 'dates') {
      const { path, start, end } = datesSpecOf(source);
      const dateAt = (p: string) => {
        const at = resolve(p);
        if (!at || isJson(at) || isScalar(at, DATE_TYPES)) return at;
        skip(field, p, `'${at.last.name}' is a ${at.last.attr.type} field, not a date`);
        return null;
      };
      // One range into two date fields of the entry (or one field holding both).
      const twoFields = (from: ResolvedPath, to: ResolvedPath) =>
        add(
          'dates',
          writeDates(false, (data, [r]) => {
            put(data, from, dateFor(from, r.start));
            if (to.path !== from.path) put(data, to, dateFor(to, r.end));
          })
        );
      const at = path === undefined ? null : resolve(path);
      if (path === undefined) {
        const [from, to] = [dateAt(start), dateAt(end)];
        if (from && to) twoFields(from, to);
      } else if (!at) continue;
      else if (isScalar(at, DATE_TYPES)) twoFields(at, at);
      else if (at.last.kind !== 'component' && !isJson(at))
        skip(field, path, `'${at.last.name}' is a ${at.last.attr.type} field, not dates`);
      else if (!isJson(at) && (start.includes('.') || end.includes('.')))
        skip(field, path, 'start and end keys inside the items must be plain keys to be written');
      else {
        const attrs = isJson(at) ? null : (getModel(at.last.target ?? '')?.attributes ?? {});
        const bad =
          attrs &&
          [start, end].find((k) => !attrs[k] || !DATE_TYPES.includes(String(attrs[k].type)));
        const many = isJson(at) || at.last.many;
        const item = (r: Range) => ({ [start]: r.start, [end]: r.end });
        if (bad) skip(field, path, `component ${at.last.target} has no date field '${bad}'`);
        else
          add(
            'dates',
            writeDates(many, (data, ranges) =>
              put(data, at, many ? ranges.map(item) : item(ranges[0]))
            )
          );
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
    /** The remote's text of the field, converted, where the field is written. */
    const textAs = (kind: 'text' | 'html', convert: (v: string) => unknown) =>
      add(kind, (remote, out) => {
        const v = text(remote[field]);
        if (v !== undefined) put(out.data, at, convert(v));
      });
    const tagsOf = (remote: Remote) => (Array.isArray(remote.tags) ? remote.tags.map(String) : []);

    switch (field) {
      case 'name':
      case 'address':
      case 'media_credits':
        if (isJson(at) || isScalar(at, TEXT_TYPES))
          textAs('text', (v) => (field === 'name' ? v.trim() : v));
        else wrongType('text');
        break;
      case 'description': {
        const blocks = isJson(at) || last.attr.type === 'blocks';
        const format = blocks ? 'blocks' : last.attr.type === 'richtext' ? 'markdown' : 'text';
        if (blocks || isScalar(at, TEXT_TYPES)) textAs('html', FROM_HTML[format]);
        else wrongType('a description');
        break;
      }
      case 'latitude':
      case 'longitude':
        if (isJson(at) || isScalar(at, NUMBER_TYPES))
          add('number', (remote, { data, problems }) => {
            const v = finite(remote[field]);
            const bad = v === undefined ? `it has no ${field}` : outside(field, v);
            if (bad) problems.push(bad);
            else put(data, at, v);
          });
        else wrongType('a number');
        break;
      case 'coordinates': {
        // A JSON field as { lat, lng }; a component by the keys parseCoordinates reads.
        const component = last.kind === 'component' && !last.many;
        const keys = component ? Object.keys(getModel(last.target ?? '')?.attributes ?? {}) : [];
        const find = (names: string[]) => keys.find((a) => names.includes(a.toLowerCase()));
        const [lat, lng] = isJson(at) ? ['lat', 'lng'] : [find(LAT_KEYS), find(LNG_KEYS)];
        if (!isJson(at) && !component) wrongType('coordinates');
        else if (!lat || !lng)
          skip(field, path, `component ${last.target} has no latitude and longitude fields`);
        else
          add('coordinates', (remote, { data, problems }) => {
            const [y, x] = [finite(remote.latitude), finite(remote.longitude)];
            const bad =
              y === undefined || x === undefined
                ? 'it has no coordinates'
                : (outside('latitude', y) ?? outside('longitude', x));
            if (bad) problems.push(bad);
            else put(data, at, { [lat]: y, [lng]: x });
          });
        break;
      }
      case 'tags': {
        const list = isJson(at);
        const target = last.target ?? '';
        const key = tagKeyFor(at, source, getModel);
        if (list || isScalar(at, TEXT_TYPES))
          add('tags', (remote, out) =>
            put(out.data, at, list ? tagsOf(remote) : tagsOf(remote).join(', '))
          );
        else if (last.kind !== 'relation' && !(last.kind === 'component' && last.many))
          wrongType('tags');
        else if (!key || key.includes('.'))
          skip(field, path, 'no text field of the related entries holds the tag');
        else
          add('tagEntries', (remote, out) => {
            const tags = [...new Set(tagsOf(remote))];
            out.tagEntries.push({ at, target, key, tags });
          });
        break;
      }
      case 'media':
      case 'image':
        if (last.kind === 'media')
          add('media', (remote, out) => {
            const url = text(remote[field === 'image' ? 'image_url' : 'media_url']);
            if (url) out.media.push({ field, at, url });
          });
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
  const keys = [...at.steps.map((step) => step.name), ...at.jsonRest];
  let obj = data;
  for (const key of keys.slice(0, -1)) {
    if (!obj[key] || typeof obj[key] !== 'object') obj[key] = {};
    obj = obj[key] as Record<string, unknown>;
  }
  obj[keys[keys.length - 1]] = value;
}

export async function invert(
  plan: FieldPlan,
  remoteId: number,
  remote: Remote,
  lookups: InverseLookups
): Promise<Inverted> {
  const out: Inverted = {
    data: {},
    relations: [],
    media: [],
    tagEntries: [],
    problems: [],
    warnings: [],
  };
  const { problems, warnings } = out;
  const resource = plan.mapping.resource;
  if (!text(remote.name)?.trim()) problems.push('it has no name');
  for (const t of plan.targets) t.write?.(remote, out);

  // Related entries: the ones the remote names, found by the sync states that own them.
  const refOf = async (target: string, kind: ResourceKind, id: number): Promise<Ref | string> => {
    const owner = await lookups.ownerOf(kind, id);
    if (!owner) return `${kind} ${id} has no entry`;
    if (owner.contentType !== target)
      return `${kind} ${id} belongs to an entry of ${owner.contentType}, the relation takes ${target}`;
    return lookups.isLocalized(target) && owner.locale
      ? { documentId: owner.documentId, locale: owner.locale }
      : { documentId: owner.documentId };
  };
  const relation = (field: string) =>
    plan.targets.find((t) => t.kind === 'relation' && t.field === field) as
      RelationTarget | undefined;
  const write = (t: RelationTarget, refs: Ref[], words: string[]) =>
    out.relations.push({ ...t, refs, words });
  const category = relation('category');
  if (resource === 'pinpoint' && category && typeof remote.category === 'number') {
    const ref = await refOf(category.target, 'category', remote.category);
    if (typeof ref === 'string') warnings.push(`its category is left out: ${ref}`);
    else write(category, [ref], [`the entry of category ${remote.category}`]);
  }
  const pinpoint = relation('pinpoint');
  if (resource === 'event' && pinpoint) {
    const id = await lookups.pinpointOf(remoteId);
    if (id === undefined)
      write(pinpoint, [], ['its pinpoint, read with GET /v3.0/events?pinpoint= when importing']);
    else if (id === null)
      problems.push('no pinpoint of the account lists it (GET /v3.0/events?pinpoint=)');
    else {
      const ref = await refOf(pinpoint.target, 'pinpoint', id);
      if (typeof ref === 'string') problems.push(`its pinpoint was not imported: ${ref}`);
      else write(pinpoint, [ref], [`the entry of pinpoint ${id}`]);
    }
  } else if (resource === 'event' && plan.mapping.fields && !plan.blocked)
    problems.push('its pinpoint cannot be written (see the fields that cannot be imported)');
  const members = relation('pinpoints');
  if (resource === 'list' && members) {
    const ids = await lookups.membersOf(remoteId);
    const refs: Ref[] = [];
    const missing: number[] = [];
    for (const id of ids) {
      const ref = await refOf(members.target, 'pinpoint', id);
      if (typeof ref === 'string') missing.push(id);
      else refs.push(ref);
    }
    if (missing.length)
      warnings.push(
        `${missing.length} of its ${ids.length} pinpoints have no entry and are left out: ${missing.slice(0, 20).join(', ')}${missing.length > 20 ? ', …' : ''}`
      );
    write(
      { ...members, many: true },
      refs,
      ids.map((id) => `the entry of pinpoint ${id}`)
    );
  }
  return out;
}
