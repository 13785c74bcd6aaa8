import { MappingError } from './errors';
import { TEXT_TYPES, type ResolvedPath } from './paths';
import { show } from './values';
import type { StrapiSchemaLookup } from './types';

// Markdown is no label.
const LABEL_TYPES = new Set(TEXT_TYPES.filter((type) => type !== 'richtext'));

/** The attribute of a related entry or component that is the tag: `key`, `name` or the first text one. */
export function tagKeyFor(
  resolved: ResolvedPath | undefined,
  source: unknown,
  getModel: StrapiSchemaLookup
): string | undefined {
  const { key } = (source ?? {}) as { key?: unknown };
  if (typeof key === 'string' && key) return key;
  const last = resolved?.jsonRest.length === 0 ? resolved.last : undefined;
  if (last?.kind !== 'relation' && last?.kind !== 'component') return undefined;
  const attributes = getModel(last.target as string)?.attributes ?? {};
  if (attributes.name) return 'name';
  return Object.keys(attributes).find((k) => LABEL_TYPES.has(String(attributes[k]?.type)));
}

function fromObject(obj: Record<string, unknown>, key: string | undefined): unknown {
  if (key !== undefined) return obj[key];
  if (typeof obj.name === 'string') return obj.name;
  // Free-form JSON: the first text property is the best guess of a label.
  return Object.values(obj).find((v) => typeof v === 'string');
}

/** Tags from a list, a text split on commas and lines, or objects: trimmed, without empties or repeats. */
export function mapTags(value: unknown, field: string, key?: string): string[] {
  const raw: string[] = [];
  const add = (item: unknown, label: string, split: boolean) => {
    if (item == null) return;
    if (typeof item === 'string') raw.push(...(split ? item.split(/[,\n]/) : [item]));
    else if (typeof item === 'number' || typeof item === 'bigint') raw.push(String(item));
    else if (typeof item === 'object' && !Array.isArray(item)) {
      const tag = fromObject(item as Record<string, unknown>, key);
      if (tag == null) return;
      if (typeof tag !== 'string' && typeof tag !== 'number')
        throw new MappingError(label, `expected text at '${key ?? 'name'}', got ${show(tag)}`);
      raw.push(String(tag));
    } else throw new MappingError(label, `expected text, got ${show(item)}`);
  };
  if (Array.isArray(value)) value.forEach((item, i) => add(item, `${field}[${i}]`, false));
  else add(value, field, true);

  return [...new Set(raw.map((tag) => tag.trim()).filter((tag) => tag !== ''))];
}
