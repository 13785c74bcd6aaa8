import { toMsUtc } from '../remote/dates';
import type { ResourceKind } from '../remote/types';
import type { ResolvedPath } from '../mapping/paths';
import type { EntryKey } from '../sync/shared/types';
import { put, type FieldPlan, type FieldTarget } from './fields';
import { FROM_HTML } from '../mapping/html';

/**
 * One remote object (its documented fields, as the inventory keeps them) read backwards through
 * a mapping's field plan: the entry's data, and what still needs the database or the network
 * (related entries, files to download, tag entries to find or create). Pure but for the lookups.
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

type RelationTarget = Extract<FieldTarget, { kind: 'relation' }>;
type Ref = { documentId: string; locale?: string };

export interface Inverted {
  data: Record<string, unknown>;
  /** the related entries as the Document Service connects them; `words` say them in a dry run */
  relations: Array<Omit<RelationTarget, 'kind' | 'target'> & { refs: Ref[]; words: string[] }>;
  media: Array<{ field: string; at: ResolvedPath; url: string }>;
  tagEntries: Array<
    Omit<Extract<FieldTarget, { kind: 'tagEntries' }>, 'kind'> & { tags: string[] }
  >;
  /** why the object cannot be imported */
  problems: string[];
  /** what of it is left out */
  warnings: string[];
}

const text = (v: unknown): string | undefined =>
  typeof v === 'string' ? v : typeof v === 'number' ? String(v) : undefined;
const finite = (v: unknown): number | undefined =>
  typeof v === 'number' && Number.isFinite(v) ? v : undefined;
const outside = (axis: 'latitude' | 'longitude', v: number) => {
  const max = axis === 'latitude' ? 90 : 180;
  return v < -max || v > max ? `${axis} ${v} is outside [-${max}, ${max}]` : undefined;
};

/** A date as the receiving attribute keeps it: a `date` field keeps the day only. */
const dateFor = (at: ResolvedPath, iso: string) =>
  at.last.attr.type === 'date' ? iso.slice(0, 10) : iso;

/** The remote's date ranges, each with an end (an instant ends where it starts). */
function rangesOf(remote: Record<string, unknown>, problems: string[]) {
  const ranges = (Array.isArray(remote.dates) ? remote.dates : []) as Array<{
    start?: unknown;
    end?: unknown;
  }>;
  const parsed: Array<{ start: string; end: string }> = [];
  for (const r of ranges) {
    try {
      const start = toMsUtc(String(r?.start ?? ''));
      parsed.push({ start, end: r?.end ? toMsUtc(String(r.end)) : start });
    } catch {
      problems.push(`a date range has no valid start (${JSON.stringify(r).slice(0, 80)})`);
    }
  }
  if (!parsed.length && !problems.some((p) => p.startsWith('a date range')))
    problems.push('it has no dates');
  return parsed;
}

export async function invert(
  plan: FieldPlan,
  remoteId: number,
  remote: Record<string, unknown>,
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

  const name = text(remote.name)?.trim();
  if (!name) problems.push('it has no name');

  const refOf = async (target: string, kind: ResourceKind, id: number): Promise<Ref | string> => {
    const owner = await lookups.ownerOf(kind, id);
    if (!owner) return `${kind} ${id} has no entry`;
    if (owner.contentType !== target)
      return `${kind} ${id} belongs to an entry of ${owner.contentType}, the relation takes ${target}`;
    return lookups.isLocalized(target) && owner.locale
      ? { documentId: owner.documentId, locale: owner.locale }
      : { documentId: owner.documentId };
  };

  for (const t of plan.targets) {
    switch (t.kind) {
      case 'text': {
        const v = text(remote[t.field]);
        if (v !== undefined) put(out.data, t.at, t.field === 'name' ? v.trim() : v);
        break;
      }
      case 'html': {
        const html = text(remote[t.field]);
        if (html !== undefined) put(out.data, t.at, FROM_HTML[t.format](html));
        break;
      }
      case 'number': {
        const v = finite(remote[t.field]);
        const bad =
          v === undefined
            ? `it has no ${t.field}`
            : outside(t.field === 'latitude' ? 'latitude' : 'longitude', v);
        if (bad) problems.push(bad);
        else put(out.data, t.at, v);
        break;
      }
      case 'coordinates': {
        const lat = finite(remote.latitude);
        const lng = finite(remote.longitude);
        const bad =
          lat === undefined || lng === undefined
            ? 'it has no coordinates'
            : (outside('latitude', lat) ?? outside('longitude', lng));
        if (bad) problems.push(bad);
        else put(out.data, t.at, { [t.lat]: lat, [t.lng]: lng });
        break;
      }
      case 'tags': {
        const tags = Array.isArray(remote.tags) ? remote.tags.map(String) : [];
        put(out.data, t.at, t.style === 'list' ? tags : tags.join(', '));
        break;
      }
      case 'tagEntries': {
        const { kind: _, ...entries } = t;
        const tags = Array.isArray(remote.tags) ? [...new Set(remote.tags.map(String))] : [];
        out.tagEntries.push({ ...entries, tags });
        break;
      }
      case 'media': {
        const url = text(remote[t.field === 'image' ? 'image_url' : 'media_url']);
        if (url) out.media.push({ field: t.field, at: t.at, url });
        break;
      }
      case 'dates': {
        const parsed = rangesOf(remote, problems);
        if (!parsed.length) break;
        const range = (r: { start: string; end: string }) => ({
          [t.start as string]: r.start,
          [t.end as string]: r.end,
        });
        if (t.at && t.many) {
          put(out.data, t.at, parsed.map(range));
          break;
        }
        if (parsed.length > 1)
          warnings.push(`only the first of its ${parsed.length} date ranges fits in '${t.field}'`);
        if (t.at) put(out.data, t.at, range(parsed[0]));
        else {
          const start = t.start as ResolvedPath;
          const end = t.end as ResolvedPath;
          put(out.data, start, dateFor(start, parsed[0].start));
          if (end.path !== start.path) put(out.data, end, dateFor(end, parsed[0].end));
        }
        break;
      }
    }
  }

  // Related entries: the ones the remote names, found by the sync states that own them.
  const relation = (field: string) =>
    plan.targets.find((t): t is RelationTarget => t.kind === 'relation' && t.field === field);
  const write = (t: RelationTarget, refs: Ref[], words: string[]) =>
    out.relations.push({ field: t.field, at: t.at, many: t.many, refs, words });
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
