/** Link to an entry in the Content Manager, relative to the admin's router (which adds /admin). */
export function entryPath(
  key: { contentType: string; documentId: string; locale: string },
  kind: 'collectionType' | 'singleType' | null = 'collectionType'
): string {
  const query = key.locale ? `?plugins[i18n][locale]=${encodeURIComponent(key.locale)}` : '';
  if (kind === 'singleType') return `/content-manager/single-types/${key.contentType}${query}`;
  return `/content-manager/collection-types/${key.contentType}/${key.documentId}${query}`;
}
