import { isBlank } from './values';
import type { SchemaAttribute, SchemaModel, StrapiSchemaLookup } from './types';

/** Upload plugin's file model: what a media attribute points to. */
export const FILE_UID = 'plugin::upload.file';

export const TEXT_TYPES = ['string', 'text', 'richtext', 'email', 'uid', 'enumeration'];
export const NUMBER_TYPES = ['integer', 'biginteger', 'float', 'decimal'];

const TO_MANY = new Set(['oneToMany', 'manyToMany', 'manyWay', 'morphToMany', 'morphMany']);
const MORPH = new Set(['morphToOne', 'morphToMany', 'morphOne', 'morphMany']);

type StepKind = 'scalar' | 'component' | 'relation' | 'media' | 'json' | 'dynamiczone';

export interface PathStep {
  name: string;
  attr: SchemaAttribute;
  /** uid of the model (content type or component) that owns the attribute */
  owner: string;
  kind: StepKind;
  /** repeatable component, to-many relation, multiple media */
  many: boolean;
  /** component uid, relation target uid, or the upload file uid for media */
  target?: string;
}

export interface ResolvedPath {
  path: string;
  steps: PathStep[];
  /** the attribute the path ends on (or enters, for JSON) */
  last: PathStep;
  /** keys read inside a JSON value after its attribute; no schema below JSON */
  jsonRest: string[];
}

/** A path that does not fit the schema; `reason` is already readable. */
export class PathError extends Error {
  constructor(readonly reason: string) {
    super(reason);
    this.name = 'PathError';
  }
}

export type NormalizedSource = { path: string; default?: unknown };

export function normalizeSource(source: unknown): NormalizedSource {
  if (typeof source === 'string') return { path: source };
  const { path, default: fallback } = source as { path?: unknown; default?: unknown };
  return { path: typeof path === 'string' ? path : '', default: fallback };
}

/** resolvePath, or undefined for a path that does not fit the schema, after `onError` heard why. */
export function tryResolvePath(
  uid: string,
  path: string,
  getModel: StrapiSchemaLookup,
  onError?: (reason: string) => void
) {
  try {
    return resolvePath(uid, path, getModel);
  } catch (err) {
    if (!(err instanceof PathError)) throw err;
    onError?.(err.reason);
  }
}

/** A transform can add keys to the entry; the schema cannot vouch for them, nor against them. */
export const unknownToSchema = (mapping: { transform?: unknown }, reason: string) =>
  !!mapping.transform && /has no attribute/.test(reason);

const STRUCTURED = new Set<string>(['component', 'relation', 'media', 'json', 'dynamiczone']);
const kindOf = (attr: SchemaAttribute): StepKind =>
  STRUCTURED.has(attr.type) ? (attr.type as StepKind) : 'scalar';

/** Component uids look like 'shared.geo', content type uids like 'api::place.place'. */
const describeOwner = (uid: string, model: SchemaModel | undefined): string =>
  model?.modelType === 'component' || (!uid.includes('::') && uid.includes('.'))
    ? `component ${uid}`
    : uid;

/** Walks a dotted path through the schema of `uid` into components, relations and media; JSON ends it. */
export function resolvePath(uid: string, path: string, getModel: StrapiSchemaLookup): ResolvedPath {
  if (typeof path !== 'string' || path.trim() === '') throw new PathError('the path is empty');
  const segments = path.split('.');
  if (segments.some((s) => s.trim() === '' || s !== s.trim()))
    throw new PathError(`'${path}' is not a valid path (empty or padded segment)`);

  const steps: PathStep[] = [];
  let owner = uid;
  let prev: PathStep | undefined;
  for (let i = 0; i < segments.length; i++) {
    const name = segments[i];
    if (prev) {
      if (prev.kind === 'json') return { path, steps, last: prev, jsonRest: segments.slice(i) };
      if (prev.kind === 'scalar')
        throw new PathError(`'${prev.name}' is a ${prev.attr.type} field; it has no '${name}'`);
      if (prev.kind === 'dynamiczone')
        throw new PathError(
          `'${prev.name}' is a dynamic zone; paths cannot go through dynamic zones`
        );
      owner = prev.target as string;
    }

    const model = getModel(owner);
    const ownerName = describeOwner(owner, model);
    if (!model) throw new PathError(`${ownerName} is not known to this Strapi`);
    const attr = model.attributes[name] as SchemaAttribute | undefined;
    if (!attr)
      throw new PathError(
        prev
          ? `'${prev.name}' has no attribute '${name}' in ${ownerName}`
          : `${ownerName} has no attribute '${name}'`
      );
    const kind = kindOf(attr);
    let target: string | undefined;
    let many = false;
    if (kind === 'component') {
      target = attr.component;
      many = attr.repeatable === true;
    } else if (kind === 'relation') {
      if (MORPH.has(String(attr.relation)) || !attr.target)
        throw new PathError(
          `'${name}' is a polymorphic relation; only relations to one content type are supported`
        );
      target = attr.target;
      many = TO_MANY.has(String(attr.relation));
    } else if (kind === 'media') {
      target = FILE_UID;
      many = attr.multiple === true;
    }
    prev = { name, attr, owner, kind, many, target };
    steps.push(prev);
  }
  return { path, steps, last: prev as PathStep, jsonRest: [] };
}

/** The dotted path of the first `i + 1` steps (`stops.venue` for the venue of `stops.venue.name`). */
export const pathTo = (steps: PathStep[], i: number): string =>
  steps
    .slice(0, i + 1)
    .map((s) => s.name)
    .join('.');

type Row = Record<string, unknown>;

/** Reads a dotted path in a populated entry; arrays met on the way are flattened (`stops.title`: every stop's title). */
export function readPath(value: unknown, path: string): unknown {
  let current: unknown = value;
  for (const segment of path.split('.')) {
    if (current === undefined || current === null) return undefined;
    if (Array.isArray(current)) {
      current = current.flatMap((item) =>
        item !== null && typeof item === 'object' ? ((item as Row)[segment] ?? []) : []
      );
    } else if (typeof current === 'object') current = (current as Row)[segment];
    else return undefined;
  }
  return current;
}

/** Reads the source's path; an empty value (nothing, blank text, no items) gives the source's default. */
export function readSource(entry: unknown, source: NormalizedSource): unknown {
  const value = readPath(entry, source.path);
  const empty = isBlank(value) || (Array.isArray(value) && value.length === 0);
  return empty && source.default !== undefined ? source.default : value;
}
