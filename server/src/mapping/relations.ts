import { MappingError } from './errors';
import { show } from './values';
import type { EntryRef } from './types';

/**
 * Related entries in a populated value (one object, a list, or nothing). The ref's locale is the
 * related entry's own: a non-localized target has none, whatever the entry's locale is.
 */
export function relatedRefs(
  value: unknown,
  target: string,
  field: string,
  path: string
): EntryRef[] {
  const items = Array.isArray(value) ? value : value === undefined || value === null ? [] : [value];
  const refs: EntryRef[] = [];
  const seen = new Set<string>();
  for (const item of items) {
    if (item === null || item === undefined) continue;
    let ref: EntryRef;
    if (typeof item === 'string' && item.trim() !== '') {
      ref = { contentType: target, documentId: item.trim(), locale: null };
    } else if (
      typeof item === 'object' &&
      typeof (item as { documentId?: unknown }).documentId === 'string'
    ) {
      const rel = item as { documentId: string; locale?: unknown };
      ref = {
        contentType: target,
        documentId: rel.documentId,
        locale: typeof rel.locale === 'string' ? rel.locale : null,
      };
    } else {
      throw new MappingError(
        field,
        `expected a related entry with a documentId at '${path}', got ${show(item)} (is the relation populated?)`
      );
    }
    const key = `${ref.documentId}\u0000${ref.locale ?? ''}`;
    if (seen.has(key)) continue;
    seen.add(key);
    refs.push(ref);
  }
  return refs;
}
