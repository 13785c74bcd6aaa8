import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Core } from '@strapi/strapi';
import { downloadMedia, type MediaFetch } from '../sync/push/media';

/** Types a media field of the map takes: what the remote serves at `media_url` / `image_url`. */
const IMAGE = /^image\/[\w.+-]+$/;
const MEDIA = /^(image|video|audio)\/[\w.+-]+$/;

const EXT: Record<string, string> = {
  'image/png': '.png',
  'image/jpeg': '.jpg',
  'image/gif': '.gif',
  'image/webp': '.webp',
  'image/svg+xml': '.svg',
};

/**
 * Downloads a remote file into the Media Library (through the upload plugin, so the app's own
 * provider stores it) and answers the file's id. `limits` are the plugin's own: `maxMediaBytes`
 * and the request timeout.
 */
export async function importMedia(
  strapi: Core.Strapi,
  url: string,
  options: { imageOnly: boolean; maxBytes: number; timeoutMs: number; fetch?: MediaFetch }
): Promise<number> {
  const file = await downloadMedia(url, {
    maxBytes: options.maxBytes,
    timeoutMs: options.timeoutMs,
    accept: options.imageOnly ? IMAGE : MEDIA,
    fetch: options.fetch,
  });
  const name = path.extname(file.name) ? file.name : `${file.name}${EXT[file.mime] ?? ''}`;
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'lc-import-'));
  const filepath = path.join(dir, name.replace(/[^\w.-]+/g, '_'));
  try {
    await fs.writeFile(filepath, file.bytes);
    const [uploaded] = await strapi
      .plugin('upload')
      .service('upload')
      .upload({
        data: { fileInfo: { name } },
        files: { filepath, originalFilename: name, mimetype: file.mime, size: file.bytes.length },
      });
    return Number(uploaded.id);
  } catch (err) {
    throw new Error(`${url} could not be stored in the Media Library: ${(err as Error).message}`);
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}
