import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { Core } from '@strapi/strapi';
import { download } from '../../remote/transport';
import { pluginConfig } from '../shared/config';

/** Bytes of an uploaded file: from disk (url `/uploads/...`) or over HTTP (an absolute url). */
export const createMediaReader =
  (strapi: Core.Strapi) =>
  async (file: { url: string; name?: string }): Promise<Buffer> => {
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
