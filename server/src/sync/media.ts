import { promises as fs } from 'node:fs';
import path from 'node:path';
import fetch from 'node-fetch';
import type { Core } from '@strapi/strapi';

/**
 * Bytes of an uploaded file: from disk for the local provider (url `/uploads/...`),
 * over HTTP for providers that store files elsewhere (absolute url).
 */
export const createMediaReader =
  (strapi: Core.Strapi, options: { timeoutMs: number }) =>
  async (file: { url: string; name?: string }): Promise<Buffer> => {
    if (!file?.url) throw new Error(`media ${file?.name ?? ''} has no url`);
    if (/^https?:\/\//i.test(file.url)) {
      const res = await fetch(file.url, { signal: AbortSignal.timeout(options.timeoutMs) });
      if (!res.ok)
        throw new Error(
          `media ${file.name ?? file.url} could not be downloaded: HTTP ${res.status}`
        );
      return Buffer.from(await res.arrayBuffer());
    }
    const publicDir = strapi.dirs.static.public;
    const resolved = path.resolve(publicDir, `.${decodeURIComponent(file.url.split('?')[0])}`);
    if (!resolved.startsWith(path.resolve(publicDir) + path.sep))
      throw new Error(`media ${file.name ?? file.url} is outside the public folder`);
    return fs.readFile(resolved);
  };
