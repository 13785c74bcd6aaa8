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

export interface RelationWrite {
  field: string;
  at: ResolvedPath;
  many: boolean;
  /** the related entries, as the Document Service connects them */
  refs: Array<{ documentId: string; locale?: string }>;
  /** said in a dry run instead of documentIds */
  words: string[];
}

export interface Inverted {
  data: Record<string, unknown>;
  relations: RelationWrite[];
  media: Array<{ field: string; at: ResolvedPath; url: string }>;
  tagEntries: Array<{
    field: string;
    at: ResolvedPath;
    target: string;
    key: string;
    component: boolean;
    tags: string[];
  }>;
  /** why the object cannot be imported */
  problems: string[];
  /** what of it is left out */
  warnings: string[];
}

type Remote = Record<string, unknown>;

const text = (v: unknown): string | undefined =>
  typeof v === 'string' ? v : typeof v === 'number' ? String(v) : undefined;
const finite = (v: unknown): number | undefined =>
  typeof v === 'number' && Number.isFinite(v) ? v : undefined;

/** A date as the receiving attribute keeps it: a `date` field keeps the day only. */
const dateFor = (at: ResolvedPath | null, attrType: string | undefined, iso: string) =>
  (at?.last.attr.type ?? attrType) === 'date' ? iso.slice(0, 10) : iso;

function relationTarget(plan: FieldPlan, field: string) {
  return plan.targets.find(
    (t): t is Extract<FieldTarget, { kind: 'relation' }> =>
      t.kind === 'relation' && t.field === field
  );
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
  const resource = plan.mapping.resource;

  const name = text(remote.name)?.trim();
  if (!name) out.problems.push('it has no name');

  const refOf = async (
    target: string,
    kind: ResourceKind,
    id: number
  ): Promise<{ documentId: string; locale?: string } | string> => {
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
        const [min, max] = t.field === 'latitude' ? [-90, 90] : [-180, 180];
        if (v === undefined) out.problems.push(`it has no ${t.field}`);
        else if (v < min || v > max)
          out.problems.push(`${t.field} ${v} is outside [${min}, ${max}]`);
        else put(out.data, t.at, v);
        break;
      }
      case 'coordinates': {
        const lat = finite(remote.latitude);
        const lng = finite(remote.longitude);
        if (lat === undefined || lng === undefined) out.problems.push('it has no coordinates');
        else if (lat < -90 || lat > 90) out.problems.push(`latitude ${lat} is outside [-90, 90]`);
        else if (lng < -180 || lng > 180)
          out.problems.push(`longitude ${lng} is outside [-180, 180]`);
        else put(out.data, t.at, { [t.lat]: lat, [t.lng]: lng });
        break;
      }
      case 'tags': {
        const tags = Array.isArray(remote.tags) ? remote.tags.map(String) : [];
        put(out.data, t.at, t.style === 'list' ? tags : tags.join(', '));
        break;
      }
      case 'tagEntries': {
        const tags = Array.isArray(remote.tags) ? [...new Set(remote.tags.map(String))] : [];
        out.tagEntries.push({
          field: t.field,
          at: t.at,
          target: t.target,
          key: t.key,
          component: t.component,
          tags,
        });
        break;
      }
      case 'media': {
        const url = text(remote[t.field === 'image' ? 'image_url' : 'media_url']);
        if (url) out.media.push({ field: t.field, at: t.at, url });
        break;
      }
      case 'dates': {
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
            out.problems.push(
              `a date range has no valid start (${JSON.stringify(r).slice(0, 80)})`
            );
          }
        }
        if (!parsed.length) {
          if (!out.problems.some((p) => p.startsWith('a date range')))
            out.problems.push('it has no dates');
          break;
        }
        if (t.at && t.many) {
          put(
            out.data,
            t.at,
            parsed.map((r) => ({ [t.start as string]: r.start, [t.end as string]: r.end }))
          );
          break;
        }
        if (parsed.length > 1)
          out.warnings.push(
            `only the first of its ${parsed.length} date ranges fits in '${t.field}'`
          );
        const first = parsed[0];
        if (t.at)
          put(out.data, t.at, { [t.start as string]: first.start, [t.end as string]: first.end });
        else {
          const start = t.start as ResolvedPath;
          const end = t.end as ResolvedPath;
          put(out.data, start, dateFor(start, undefined, first.start));
          if (end.path !== start.path) put(out.data, end, dateFor(end, undefined, first.end));
        }
        break;
      }
      case 'relation':
        break;
    }
  }

  // Related entries: the ones the remote names, found by the sync states that own them.
  const category = relationTarget(plan, 'category');
  if (resource === 'pinpoint' && category && typeof remote.category === 'number') {
    const ref = await refOf(category.target, 'category', remote.category);
    if (typeof ref === 'string') out.warnings.push(`its category is left out: ${ref}`);
    else
      out.relations.push({
        field: 'category',
        at: category.at,
        many: category.many,
        refs: [ref],
        words: [`the entry of category ${remote.category}`],
      });
  }
  const pinpoint = relationTarget(plan, 'pinpoint');
  if (resource === 'event' && pinpoint) {
    const id = await lookups.pinpointOf(remoteId);
    if (id === undefined)
      out.relations.push({
        field: 'pinpoint',
        at: pinpoint.at,
        many: pinpoint.many,
        refs: [],
        words: ['its pinpoint, read with GET /v3.0/events?pinpoint= when importing'],
      });
    else if (id === null)
      out.problems.push('no pinpoint of the account lists it (GET /v3.0/events?pinpoint=)');
    else {
      const ref = await refOf(pinpoint.target, 'pinpoint', id);
      if (typeof ref === 'string') out.problems.push(`its pinpoint was not imported: ${ref}`);
      else
        out.relations.push({
          field: 'pinpoint',
          at: pinpoint.at,
          many: pinpoint.many,
          refs: [ref],
          words: [`the entry of pinpoint ${id}`],
        });
    }
  } else if (resource === 'event' && plan.mapping.fields && !plan.blocked)
    out.problems.push('its pinpoint cannot be written (see the fields that cannot be imported)');
  const members = relationTarget(plan, 'pinpoints');
  if (resource === 'list' && members) {
    const ids = await lookups.membersOf(remoteId);
    const refs: RelationWrite['refs'] = [];
    const missing: number[] = [];
    for (const id of ids) {
      const ref = await refOf(members.target, 'pinpoint', id);
      if (typeof ref === 'string') missing.push(id);
      else refs.push(ref);
    }
    if (missing.length)
      out.warnings.push(
        `${missing.length} of its ${ids.length} pinpoints have no entry and are left out: ${missing.slice(0, 20).join(', ')}${missing.length > 20 ? ', …' : ''}`
      );
    out.relations.push({
      field: 'pinpoints',
      at: members.at,
      many: true,
      refs,
      words: ids.map((id) => `the entry of pinpoint ${id}`),
    });
  }
  return out;
}
