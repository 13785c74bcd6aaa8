import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { Core } from '@strapi/strapi';
import type { Mapping } from '../../config/types';
import { populateFor, type MappingContext } from '../../mapping';
import type { MediaFileObject } from '../../mapping/types';
import { isLocalizedModel } from '../../mapping/populate';
import { createBatcher, groupBy } from '../shared/batcher';
import { keyString, toKey } from '../shared/keys';
import { documentsOf, modelOf as modelIn, type Row } from '../shared/strapi';
import type { EntryKey } from '../shared/types';
import { getService } from '../../utils';
import { pluginConfig } from '../shared/config';
import { download } from '../../remote/transport';

/** An absolute public URL of this Strapi (server.url), for links to /uploads inside descriptions. */
const publicUrlOf = (strapi: Core.Strapi): string | undefined => {
  const url = strapi.config.get('server.url') as unknown;
  return typeof url === 'string' && /^https?:\/\//i.test(url) ? url.replace(/\/+$/, '') : undefined;
};

/** What identifies the content of an uploaded file without reading it. */
const mediaIdentity = (file: MediaFileObject): string | undefined => {
  // A bare URL (from a transform) says nothing about the bytes behind it: read them.
  if (file.hash === undefined && file.updatedAt === undefined && file.size === undefined)
    return undefined;
  // JSON writes an undefined array item as null.
  return JSON.stringify([file.url, file.hash, file.size, file.updatedAt, file.mime]);
};

/** What a payload is made from: the entry as it is now, and what mapping it needs to know. */
export function createPayloadSource(strapi: Core.Strapi) {
  /** Bytes of an uploaded file: from disk (url `/uploads/...`) or over HTTP (an absolute url). */
  const readMedia = async (file: { url: string; name?: string }): Promise<Buffer> => {
    if (!file?.url) throw new Error(`media ${file?.name ?? ''} has no url`);
    if (/^https?:\/\//i.test(file.url)) {
      const timeoutMs = pluginConfig(strapi).requestTimeoutMs;
      const { status, bytes } = await download(file.url, { timeoutMs });
      if (!bytes)
        throw new Error(`media ${file.name ?? file.url} could not be downloaded: HTTP ${status}`);
      return bytes;
    }
    const publicDir = strapi.dirs.static.public;
    const resolved = path.resolve(publicDir, `.${decodeURIComponent(file.url.split('?')[0])}`);
    if (!resolved.startsWith(path.resolve(publicDir) + path.sep))
      throw new Error(`media ${file.name ?? file.url} is outside the public folder`);
    return fs.readFile(resolved);
  };

  const modelOf = (uid: string) => modelIn(strapi, uid);
  const isLocalized = (uid: string) => isLocalizedModel(modelOf(uid));
  const hasDraftAndPublish = (uid: string) => Boolean(modelOf(uid)?.options?.draftAndPublish);

  // Entries asked for at the same moment are read together: one populated query per content type
  // and locale instead of one per entry (a resync reads a page of entries at once).
  const entryReads = createBatcher(
    async (items: Array<{ key: EntryKey; mapping: Mapping }>) => {
      const groups = groupBy(items, (it) => `${it.key.contentType}|${it.key.locale}`);
      const found = new Map<string, Row>();
      for (const group of groups.values()) {
        const { key, mapping } = group[0];
        const params: Record<string, unknown> = {
          filters: { documentId: { $in: [...new Set(group.map((it) => it.key.documentId))] } },
          populate: populateFor(mapping, modelOf),
        };
        if (isLocalized(key.contentType)) params.locale = key.locale;
        if (hasDraftAndPublish(key.contentType)) params.status = 'published';
        const entries = await documentsOf(strapi, key.contentType).findMany(params);
        const { contentType, locale } = key;
        for (const e of entries)
          found.set(keyString({ contentType, documentId: e.documentId as string, locale }), e);
      }
      return items.map((it) => found.get(keyString(it.key)) ?? null);
    },
    { maxSize: 100 }
  );

  /** The entry as the remote must show it now: its published version (or the only one without draft & publish). */
  const readEntry = (key: EntryKey, mapping: Mapping): Promise<Row | null> =>
    entryReads.load({ key, mapping });

  const mappingContext = (): MappingContext => ({
    getModel: modelOf,
    maxMediaBytes: pluginConfig(strapi).maxMediaBytes,
    readMedia,
    mediaIdentity,
    publicUrl: publicUrlOf(strapi),
    remoteIdOf: async (ref) => {
      const state = await getService('state', { strapi }).get(toKey(ref));
      return state?.remoteId ?? undefined;
    },
  });

  return { readEntry, mappingContext, isLocalized, hasDraftAndPublish };
}
