import { PLUGIN_ID } from '../pluginId';

/** Admin API paths of the plugin (server/src/routes/admin.ts). */
export const API = {
  settings: `/${PLUGIN_ID}/settings`,
  testConnection: `/${PLUGIN_ID}/settings/test`,
  testAlert: `/${PLUGIN_ID}/alerts/test`,
  mappings: `/${PLUGIN_ID}/mappings`,
  status: `/${PLUGIN_ID}/status`,
  entry: (contentType: string, documentId: string) =>
    `/${PLUGIN_ID}/entries/${encodeURIComponent(contentType)}/${encodeURIComponent(documentId)}`,
  history: (contentType: string, documentId: string) =>
    `/${PLUGIN_ID}/entries/${encodeURIComponent(contentType)}/${encodeURIComponent(documentId)}/history`,
  preview: (contentType: string, documentId: string) =>
    `/${PLUGIN_ID}/entries/${encodeURIComponent(contentType)}/${encodeURIComponent(documentId)}/preview`,
  push: `/${PLUGIN_ID}/push`,
  resync: `/${PLUGIN_ID}/resync`,
  retryFailed: `/${PLUGIN_ID}/retry-failed`,
};

/** The server's own sentence for a failed call (400s carry one), else the fetch error's. */
export function errorMessage(err: unknown): string {
  const e = err as any;
  return e?.response?.data?.error?.message ?? e?.message ?? String(err);
}

/** The field a 400 is about, when the server says. */
export function errorField(err: unknown): string | undefined {
  return (err as any)?.response?.data?.error?.details?.field;
}

/** Link to an entry in the Content Manager, relative to the admin's router (which adds /admin). */
export function entryPath(
  key: { contentType: string; documentId: string; locale: string },
  kind: 'collectionType' | 'singleType' | null = 'collectionType'
): string {
  const query = key.locale ? `?plugins[i18n][locale]=${encodeURIComponent(key.locale)}` : '';
  if (kind === 'singleType') return `/content-manager/single-types/${key.contentType}${query}`;
  return `/content-manager/collection-types/${key.contentType}/${key.documentId}${query}`;
}
