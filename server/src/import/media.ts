import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Core } from '@strapi/strapi';
import { MIME_BY_EXT } from '../mapping/media';
import { openDownload } from '../remote/transport';
import { pluginConfig } from '../sync/shared/config';
import { IMPORT_ITEM_UID } from '../sync/shared/tables';
import { getService } from '../utils';

/** Types a media field of the map takes: what the remote serves at `media_url` / `image_url`. */
const IMAGE = /^image\/[\w.+-]+$/;
const MEDIA = /^(image|video|audio)\/[\w.+-]+$/;

/** The remote file at `url`: http and https only, a type among `accept`, at most `maxBytes`. */
async function download(strapi: Core.Strapi, url: string, accept: RegExp) {
  const { maxMediaBytes: maxBytes, requestTimeoutMs: timeoutMs } = pluginConfig(strapi);
  if (!URL.canParse(url)) throw new Error(`${url} is not a URL`);
  const parsed = new URL(url);
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
    throw new Error(`${url} is not an http or https URL`);
  const signal = AbortSignal.timeout(timeoutMs);
  const late = () => new Error(`${url} did not answer within ${timeoutMs} ms`);
  const limiter = getService('settings', { strapi }).limiter();
  let res;
  try {
    // Fetched behind the remote's rate limit, in the background lane, like its API.
    res = await limiter.background(() => limiter.wrap(openDownload)(parsed.href, { signal }));
  } catch (err) {
    throw signal.aborted
      ? late()
      : new Error(`${url} could not be downloaded: ${(err as Error).message}`);
  }
  const mime = (res.headers.get('content-type') ?? '').split(';')[0].trim().toLowerCase();
  const tooBig = (n: number) =>
    new Error(
      `${url} is over the ${maxBytes}-byte limit (maxMediaBytes)${n ? `: ${n} bytes` : ''}`
    );
  const stated = Number(res.headers.get('content-length'));
  const refusal =
    res.status < 200 || res.status >= 300
      ? new Error(`${url} answered HTTP ${res.status}`)
      : !accept.test(mime)
        ? new Error(`${url} is ${mime || 'of no stated type'}, not an accepted media type`)
        : Number.isFinite(stated) && stated > maxBytes
          ? tooBig(stated)
          : null;
  if (refusal) {
    await res.dump();
    throw refusal;
  }
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of res.body) {
      size += chunk.length;
      // Counted as it comes: a server may state no length, or a wrong one.
      if (size > maxBytes) throw tooBig(0);
      chunks.push(chunk);
    }
  } catch (err) {
    throw signal.aborted ? late() : err;
  }
  const name = decodeURIComponent(parsed.pathname.split('/').pop() || '') || 'file';
  const ext = Object.keys(MIME_BY_EXT).find((e) => MIME_BY_EXT[e] === mime);
  return {
    bytes: Buffer.concat(chunks),
    mime,
    name: path.extname(name) ? name : name + (ext ?? ''),
  };
}

/**
 * Downloads a remote file into the Media Library (through the upload plugin, so the app's own
 * provider stores it) and answers the file's id. A refusal's reason is a sentence for the report.
 * The upload relates the file to the import's row `itemId` (its `media`) as it writes the file:
 * one the item then fails to record is still found, by dropUnkept.
 */
export async function importMedia(
  strapi: Core.Strapi,
  url: string,
  imageOnly: boolean,
  itemId: number
) {
  const file = await download(strapi, url, imageOnly ? IMAGE : MEDIA);
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'lc-import-'));
  const filepath = path.join(dir, file.name.replace(/[^\w.-]+/g, '_'));
  try {
    await fs.writeFile(filepath, file.bytes);
    const [uploaded] = await strapi
      .plugin('upload')
      .service('upload')
      .upload({
        data: {
          fileInfo: { name: file.name },
          refId: itemId,
          ref: IMPORT_ITEM_UID,
          field: 'media',
        },
        files: {
          filepath,
          originalFilename: file.name,
          mimetype: file.mime,
          size: file.bytes.length,
        },
      });
    return Number(uploaded.id);
  } catch (err) {
    throw new Error(`${url} could not be stored in the Media Library: ${(err as Error).message}`);
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}

type Related = { id: number; __type: string };

/**
 * Removes the files uploaded for the import's row `itemId` that it does not record (`kept`) and
 * nothing else uses: what a kill or a failed write between an upload and its record left, before
 * the download is made again. A file an entry or anything else uses is never removed.
 */
export async function dropUnkept(strapi: Core.Strapi, itemId: number, kept: number[]) {
  const item = await strapi.db.query(IMPORT_ITEM_UID).findOne({
    where: { id: itemId },
    select: ['id'],
    populate: { media: { populate: { related: true } } },
  });
  const upload = strapi.plugin('upload').service('upload');
  for (const file of (item?.media ?? []) as Array<{ id: number; related?: Related[] }>) {
    const mine = (r: Related) => r.__type === IMPORT_ITEM_UID && Number(r.id) === itemId;
    if (kept.includes(Number(file.id)) || (file.related ?? []).some((r) => !mine(r))) continue;
    await upload.remove(file);
  }
}
