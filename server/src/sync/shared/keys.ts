import type { EntryKey } from './types';

export const toKey = (k: Omit<EntryKey, 'locale'> & { locale?: string | null }): EntryKey => ({
  contentType: k.contentType,
  documentId: k.documentId,
  locale: k.locale ?? '',
});

/** Text form of a key: the target column of the refs table, and the key of maps of entries. */
export const keyString = (k: EntryKey) => `${k.contentType}|${k.documentId}|${k.locale}`;

/** How logs and messages name an entry: `api::place.place abc123 (en)`. */
export const keyLabel = (k: EntryKey) =>
  `${k.contentType} ${k.documentId}${k.locale ? ` (${k.locale})` : ''}`;

export const sameKey = (a: EntryKey, b: EntryKey) =>
  a.contentType === b.contentType && a.documentId === b.documentId && a.locale === b.locale;
