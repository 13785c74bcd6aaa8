import { parseCoordinates, checkInRange, type Position } from './coordinates';
import { datesSpecOf, mapDates } from './dates';
import { MappingError } from './errors';
import { isBlocks } from './blocks';
import { toHtml } from './html';
import { mediaFileOf } from './media';
import {
  normalizeSource,
  PathError,
  readPath,
  readSource,
  resolvePath,
  type NormalizedSource,
  type ResolvedPath,
} from './paths';
import { isLocalized } from './populate';
import { relatedRefs } from './relations';
import { mapTags, tagKeyFor } from './tags';
import { show, single, toNumber, toText } from './values';
import type { DateRange, MediaFile } from '../remote/types';
import type { DeferredMedia, Entry, EntryRef, Mapping, MappingContext, RefRole } from './types';
import { extend } from '../utils/objects';

interface Read {
  source: NormalizedSource;
  /** undefined when the path is not in the schema but a transform may have put it there */
  resolved: ResolvedPath | undefined;
  value: unknown;
}

/**
 * Reads one entry through one mapping's field map, and keeps track of the related entries
 * it used. Resource modules ask it for typed values by remote field name.
 */
export class EntryReader {
  readonly refs: Array<EntryRef & { role: RefRole }> = [];
  readonly unresolved: Array<EntryRef & { role: RefRole; blocking: boolean }> = [];
  readonly deferredMedia: DeferredMedia[] = [];

  constructor(
    readonly mapping: Mapping,
    readonly entry: Entry,
    readonly ctx: MappingContext
  ) {}

  private get fields(): Record<string, unknown> {
    return (this.mapping.fields ?? {}) as unknown as Record<string, unknown>;
  }

  has(field: string): boolean {
    const source = this.fields[field];
    return source !== undefined && source !== null;
  }

  resolve(field: string, path: string): ResolvedPath | undefined {
    try {
      return resolvePath(this.mapping.contentType, path, this.ctx.getModel);
    } catch (err) {
      if (!(err instanceof PathError)) throw err;
      // A transform may add keys the schema does not have; read them by shape.
      if (this.mapping.transform && /has no attribute/.test(err.reason)) return undefined;
      throw new MappingError(field, `'${path}': ${err.reason}`);
    }
  }

  /** `identity`: the path ends on a relation whose entries `related` records with their role. */
  read(field: string, opts: { identity?: boolean } = {}): Read | undefined {
    const raw = this.fields[field];
    if (raw === undefined || raw === null) return undefined;
    const source = normalizeSource(raw as never);
    const resolved = this.resolve(field, source.path);
    if (resolved) this.noteReadThrough(resolved, opts.identity === true);
    return { source, resolved, value: readSource(this.entry, source) };
  }

  private readonly readKeys = new Set<string>();

  /**
   * Entries a value was read through (tags from related names, a name from a related entry):
   * recorded as refs, so that when one of them changes or goes, this entry is pushed again.
   */
  private noteReadThrough(resolved: ResolvedPath, skipLast: boolean) {
    resolved.steps.forEach((step, i) => {
      if (step.kind !== 'relation' || !step.target) return;
      if (skipLast && i === resolved.steps.length - 1) return;
      const prefix = resolved.steps
        .slice(0, i + 1)
        .map((s) => s.name)
        .join('.');
      const value = readPath(this.entry, prefix);
      const items = Array.isArray(value)
        ? value
        : value === undefined || value === null
          ? []
          : [value];
      const localized = isLocalized(step.target, this.ctx.getModel);
      for (const item of items) {
        const documentId =
          item && typeof item === 'object'
            ? (item as { documentId?: unknown }).documentId
            : undefined;
        if (typeof documentId !== 'string') continue;
        const locale =
          localized && typeof (item as { locale?: unknown }).locale === 'string'
            ? (item as { locale: string }).locale
            : null;
        const key = `${step.target}\u0000${documentId}\u0000${locale ?? ''}`;
        if (this.readKeys.has(key)) continue;
        this.readKeys.add(key);
        this.refs.push({ contentType: step.target, documentId, locale, role: 'read' });
      }
    });
  }

  /**
   * The field a value is read from as the editor sees it in the Content Manager: the attributes
   * of the path, a component's display name after it (`geo (Geo point) › lat`), not the config
   * path. A path the schema does not know (a transform's) is named as configured.
   */
  fieldOf(r: Read): string {
    if (!r.resolved) return `'${r.source.path}'`;
    const names = r.resolved.steps.map((step) => {
      const shown =
        step.kind === 'component' && step.target
          ? this.ctx.getModel(step.target)?.info?.displayName
          : undefined;
      return shown && shown !== step.name ? `${step.name} (${shown})` : step.name;
    });
    return [...names, ...r.resolved.jsonRest].join(' › ');
  }

  /** A mapped text is always sent, empty included: a PUT may keep an omitted field's old text. */
  text(field: string): string | undefined {
    const r = this.read(field);
    if (!r) return undefined;
    return toText(r.value, field, r.source.path) ?? '';
  }

  requiredText(field: string): string {
    const r = this.read(field);
    if (!r) throw new MappingError(field, 'is not mapped');
    const text = toText(r.value, field, r.source.path);
    if (text === undefined || text === '') {
      throw new MappingError(field, `empty field ${this.fieldOf(r)}; the remote needs a ${field}`);
    }
    return text;
  }

  html(field: string): string | undefined {
    const r = this.read(field);
    if (!r) return undefined;
    const type =
      r.resolved && r.resolved.jsonRest.length === 0
        ? String(r.resolved.last.attr.type)
        : undefined;
    const value =
      type === 'blocks' || isBlocks(r.value) ? r.value : single(r.value, field, r.source.path);
    const html = toHtml(value, type, { publicUrl: this.ctx.publicUrl });
    if (html === undefined)
      throw new MappingError(field, `expected text at '${r.source.path}', got ${show(value)}`);
    return html;
  }

  number(field: string): number | undefined {
    const r = this.read(field);
    if (!r) return undefined;
    return toNumber(r.value, field, r.source.path);
  }

  requiredNumber(field: string): number {
    const r = this.read(field);
    if (!r) throw new MappingError(field, 'is not mapped');
    const n = toNumber(r.value, field, r.source.path);
    if (n === undefined) throw new MappingError(field, `empty field ${this.fieldOf(r)}`);
    return n;
  }

  /** latitude + longitude, from two fields or from one `coordinates` field */
  position(): Position {
    if (this.has('coordinates')) {
      const r = this.read('coordinates') as Read;
      const position = parseCoordinates(r.value, 'coordinates', r.source.path);
      if (!position) throw new MappingError('coordinates', `empty field ${this.fieldOf(r)}`);
      return position;
    }
    const problems: MappingError[] = [];
    const attempt = (field: 'latitude' | 'longitude') => {
      try {
        return checkInRange(field, this.requiredNumber(field));
      } catch (err) {
        if (err instanceof MappingError) problems.push(err);
        else throw err;
        return NaN;
      }
    };
    const latitude = attempt('latitude');
    const longitude = attempt('longitude');
    if (problems.length > 0) throw MappingError.combine(problems);
    return { latitude, longitude };
  }

  tags(field = 'tags'): string[] | undefined {
    const raw = this.fields[field];
    if (raw === undefined || raw === null) return undefined;
    const r = this.read(field) as Read;
    const key =
      typeof raw === 'object' && typeof (raw as { key?: unknown }).key === 'string'
        ? (raw as { key: string }).key
        : undefined;
    return mapTags(r.value, field, tagKeyFor(r.resolved, key, this.ctx.getModel));
  }

  async media(
    field: string,
    remoteField: DeferredMedia['remoteField'] = 'media_file'
  ): Promise<MediaFile | undefined> {
    const r = this.read(field);
    if (!r) return undefined;
    return mediaFileOf(r.value, field, r.source.path, this.ctx, (placeholder, file, name) => {
      this.deferredMedia.push({ remoteField, field, placeholder, file, name });
    });
  }

  dates(field = 'dates'): DateRange[] {
    const raw = this.fields[field];
    if (raw === undefined || raw === null) throw new MappingError(field, 'is not mapped');
    const spec = datesSpecOf(raw);
    if (spec.path !== undefined) this.resolve(field, spec.path);
    return mapDates(this.entry, spec, field);
  }

  /**
   * Remote ids of the related entries at a relation field. Entries not synced yet are recorded
   * as unresolved: the caller's `blocking` says whether the push must wait for them.
   */
  async related(
    field: string,
    role: RefRole,
    opts: { blocking: boolean; single: boolean }
  ): Promise<{ ids: number[]; count: number }> {
    const r = this.read(field, { identity: true });
    if (!r) return { ids: [], count: 0 };
    const last = r.resolved?.last;
    if (
      !r.resolved ||
      !last ||
      last.kind !== 'relation' ||
      r.resolved.jsonRest.length > 0 ||
      !last.target
    ) {
      throw new MappingError(field, `'${r.source.path}' is not a relation`);
    }
    // Only a localized target's entries have a meaningful locale (i18n gives every type the column).
    const localized = isLocalized(last.target, this.ctx.getModel);
    const refs = relatedRefs(r.value, last.target, field, r.source.path).map((ref) =>
      localized ? ref : extend(ref, { locale: null })
    );
    if (opts.single && refs.length > 1) {
      throw new MappingError(
        field,
        `'${r.source.path}' gives ${refs.length} related entries, one is needed`
      );
    }
    const ids: number[] = [];
    for (const ref of refs) {
      this.refs.push(extend(ref, { role }));
      const id = await this.ctx.remoteIdOf(ref);
      if (id === undefined || id === null)
        this.unresolved.push(extend(ref, { role, blocking: opts.blocking }));
      else if (!ids.includes(id)) ids.push(id);
    }
    return { ids, count: refs.length };
  }
}
