import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { Core } from '@strapi/strapi';
import { download, openDownload, type StreamedResponse } from '../../remote/transport';
import { pluginConfig } from '../shared/config';

/**
 * Bytes of an uploaded file: from disk for the local provider (url `/uploads/...`),
 * over HTTP for providers that store files elsewhere (absolute url).
 */
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

/** `openDownload` (the one HTTP client), or the same behind the remote's rate limit (the import's downloads). */
export type MediaFetch = (url: string, init: { signal?: AbortSignal }) => Promise<StreamedResponse>;

export interface Downloaded {
  bytes: Buffer;
  /** the answer's media type, without parameters */
  mime: string;
  /** the last segment of the URL's path, or `file` */
  name: string;
}

/**
 * A remote file fetched to be kept (import): http and https only, a type among `accept`, at most
 * `maxBytes` (said by Content-Length or counted while reading) within `timeoutMs`. The reason of
 * a refusal is a sentence for the import report.
 */
export async function downloadMedia(
  url: string,
  options: { maxBytes: number; timeoutMs: number; accept: RegExp; fetch?: MediaFetch }
): Promise<Downloaded> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new Error(`${url} is not a URL`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
    throw new Error(`${url} is not an http or https URL`);
  const signal = AbortSignal.timeout(options.timeoutMs);
  let res;
  try {
    res = await (options.fetch ?? openDownload)(parsed.href, { signal });
  } catch (err) {
    throw new Error(
      signal.aborted
        ? `${url} did not answer within ${options.timeoutMs} ms`
        : `${url} could not be downloaded: ${(err as Error).message}`
    );
  }
  if (res.status < 200 || res.status >= 300) {
    await res.dump();
    throw new Error(`${url} answered HTTP ${res.status}`);
  }
  const mime = (res.headers.get('content-type') ?? '').split(';')[0].trim().toLowerCase();
  if (!options.accept.test(mime)) {
    await res.dump();
    throw new Error(`${url} is ${mime || 'of no stated type'}, not an accepted media type`);
  }
  const tooBig = (n: number) =>
    new Error(
      `${url} is over the ${options.maxBytes}-byte limit (maxMediaBytes)${n ? `: ${n} bytes` : ''}`
    );
  const stated = Number(res.headers.get('content-length'));
  if (Number.isFinite(stated) && stated > options.maxBytes) {
    await res.dump();
    throw tooBig(stated);
  }
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of res.body) {
      size += chunk.length;
      // Counted as it comes: a server may state no length, or a wrong one.
      if (size > options.maxBytes) throw tooBig(0);
      chunks.push(chunk);
    }
  } catch (err) {
    if (signal.aborted) throw new Error(`${url} did not answer within ${options.timeoutMs} ms`);
    throw err;
  }
  const name = decodeURIComponent(parsed.pathname.split('/').pop() || '') || 'file';
  return { bytes: Buffer.concat(chunks), mime, name };
}
