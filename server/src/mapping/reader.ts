import { parseCoordinates, checkInRange, type Position } from './coordinates';
import { datesSpecOf, mapDates } from './dates';
import { collectProblems, MappingError } from './errors';
import { isBlocks } from './blocks';
import { toHtml } from './html';
import { mediaFileOf } from './media';
import {
  normalizeSource,
  pathTo,
  readPath,
  readSource,
  tryResolvePath,
  unknownToSchema,
  type NormalizedSource,
  type ResolvedPath,
} from './paths';
import { isLocalized } from './populate';
import { mapTags, tagKeyFor } from './tags';
import { itemsOf, show, single, toNumber, toText } from './values';
import type { DateRange } from '../remote/types';
import type { DeferredMedia, Entry, EntryRef, Mapping, MappingContext, RefRole } from './types';
import { extend } from '../utils/objects';

/** `resolved` is undefined for a path the schema does not know but a transform may have added. */
type Read = { source: NormalizedSource; resolved?: ResolvedPath; value: unknown };

/** Reads one entry through a mapping's field map by remote field name; keeps the related entries it used. */
export class EntryReader {
  readonly refs: Array<EntryRef & { role: RefRole }> = [];
  readonly unresolved: Array<EntryRef & { role: RefRole; blocking: boolean }> = [];
  readonly deferredMedia: DeferredMedia[] = [];
  private readonly readKeys = new Set<string>();
  private readonly fields: Record<string, unknown>;

  constructor(
    readonly mapping: Mapping,
    readonly entry: Entry,
    readonly ctx: MappingContext
  ) {
    this.fields = mapping.fields as unknown as Record<string, unknown>;
  }

  has(field: string): boolean {
    return this.fields[field] != null;
  }

  resolve(field: string, path: string): ResolvedPath | undefined {
    return tryResolvePath(this.mapping.contentType, path, this.ctx.getModel, (reason) => {
      if (!unknownToSchema(this.mapping, reason))
        throw new MappingError(field, `'${path}': ${reason}`);
    });
  }

  /** `identity`: the path ends on a relation whose entries `related` records with their role. */
  read(field: string, identity = false): Read | undefined {
    if (!this.has(field)) return undefined;
    const source = normalizeSource(this.fields[field]);
    const resolved = this.resolve(field, source.path);
    if (resolved) this.noteReadThrough(resolved, identity);
    return { source, resolved, value: readSource(this.entry, source) };
  }

  private required(field: string): Read {
    const r = this.read(field);
    if (!r) throw new MappingError(field, 'is not mapped');
    return r;
  }

  /** Entries a value was read through (tags from related names): when one changes, this entry is pushed again. */
  private noteReadThrough(resolved: ResolvedPath, skipLast: boolean) {
    const steps = skipLast ? resolved.steps.slice(0, -1) : resolved.steps;
    steps.forEach((step, i) => {
      if (step.kind !== 'relation' || !step.target) return;
      const prefix = pathTo(steps, i);
      const localized = isLocalized(step.target, this.ctx.getModel);
      for (const item of itemsOf(readPath(this.entry, prefix))) {
        const { documentId, locale } = item as { documentId?: unknown; locale?: unknown };
        if (typeof documentId !== 'string') continue;
        const ref = {
          contentType: step.target,
          documentId,
          locale: localized && typeof locale === 'string' ? locale : null,
        };
        const key = `${ref.contentType}\u0000${documentId}\u0000${ref.locale ?? ''}`;
        if (this.readKeys.has(key)) continue;
        this.readKeys.add(key);
        this.refs.push({ ...ref, role: 'read' });
      }
    });
  }

  /** The field as the editor sees it in the Content Manager (`geo (Geo point) › lat`), not the config path. */
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
    return r && (toText(r.value, field, r.source.path) ?? '');
  }

  requiredText(field: string): string {
    const r = this.required(field);
    const text = toText(r.value, field, r.source.path);
    if (text === undefined || text === '')
      throw new MappingError(field, `empty field ${this.fieldOf(r)}; the remote needs a ${field}`);
    return text;
  }

  html(field: string): string | undefined {
    const r = this.read(field);
    if (!r) return undefined;
    const type = r.resolved?.jsonRest.length === 0 ? String(r.resolved.last.attr.type) : undefined;
    const value =
      type === 'blocks' || isBlocks(r.value) ? r.value : single(r.value, field, r.source.path);
    const html = toHtml(value, type, { publicUrl: this.ctx.publicUrl });
    if (html === undefined)
      throw new MappingError(field, `expected text at '${r.source.path}', got ${show(value)}`);
    return html;
  }

  number(field: string): number | undefined {
    const r = this.read(field);
    return r && toNumber(r.value, field, r.source.path);
  }

  /** latitude + longitude, from two fields or from one `coordinates` field */
  async position(): Promise<Position> {
    const r = this.read('coordinates');
    if (r) {
      const position = parseCoordinates(r.value, 'coordinates', r.source.path);
      if (!position) throw new MappingError('coordinates', `empty field ${this.fieldOf(r)}`);
      return position;
    }
    const position = { latitude: NaN, longitude: NaN };
    await collectProblems(['latitude', 'longitude'] as const, (field) => {
      const r = this.required(field);
      const n = toNumber(r.value, field, r.source.path);
      if (n === undefined) throw new MappingError(field, `empty field ${this.fieldOf(r)}`);
      position[field] = checkInRange(field, n);
    });
    return position;
  }

  tags(field: string): string[] | undefined {
    const r = this.read(field);
    if (!r) return undefined;
    return mapTags(r.value, field, tagKeyFor(r.resolved, this.fields[field], this.ctx.getModel));
  }

  async media(field: string, remoteField: DeferredMedia['remoteField']) {
    const r = this.read(field);
    if (!r) return undefined;
    return mediaFileOf(r.value, field, r.source.path, this.ctx, (placeholder, file, name) => {
      this.deferredMedia.push({ remoteField, field, placeholder, file, name });
    });
  }

  dates(field: string): Promise<DateRange[]> {
    if (!this.has(field)) throw new MappingError(field, 'is not mapped');
    const spec = datesSpecOf(this.fields[field]);
    if (spec.path !== undefined) this.resolve(field, spec.path);
    return mapDates(this.entry, spec, field);
  }

  /**
   * Remote ids of the related entries; those not synced yet are unresolved. The one entry of a
   * `single` relation (category, pinpoint) blocks the push until then; members do not.
   */
  async related(field: string, role: RefRole, single: boolean) {
    const fail = (reason: string) => new MappingError(field, reason);
    const r = this.read(field, true);
    if (!r) return { ids: [], count: 0 };
    const { source, resolved } = r;
    const target = resolved?.last.kind === 'relation' ? resolved.last.target : undefined;
    if (!target || resolved?.jsonRest.length) throw fail(`'${source.path}' is not a relation`);
    // Only a localized target's entries have a meaningful locale (i18n gives every type the column).
    const localized = isLocalized(target, this.ctx.getModel);
    const refs = new Map<string, EntryRef>();
    for (const item of itemsOf(r.value)) {
      const rel = item as { documentId?: unknown; locale?: unknown };
      const documentId = typeof item === 'string' ? item.trim() || undefined : rel.documentId;
      if (typeof documentId !== 'string')
        throw fail(
          `expected a related entry with a documentId at '${source.path}', got ${show(item)} (is the relation populated?)`
        );
      const locale = localized && typeof rel.locale === 'string' ? rel.locale : null;
      const key = `${documentId}\u0000${locale ?? ''}`;
      if (!refs.has(key)) refs.set(key, { contentType: target, documentId, locale });
    }
    if (single && refs.size > 1)
      throw fail(`'${source.path}' gives ${refs.size} related entries, one is needed`);
    const ids: number[] = [];
    for (const ref of refs.values()) {
      this.refs.push(extend(ref, { role }));
      const id = await this.ctx.remoteIdOf(ref);
      if (id == null) this.unresolved.push(extend(ref, { role, blocking: single }));
      else if (!ids.includes(id)) ids.push(id);
    }
    return { ids, count: refs.size };
  }
}
