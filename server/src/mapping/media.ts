import { createHash } from 'node:crypto';
import { MappingError } from './errors';
import { itemsOf, show } from './values';
import type { MediaFile } from '../remote/types';
import type { DeferredMedia, MappingContext, MediaFileObject } from './types';
import { extend } from '../utils/objects';

const UNITS = ['bytes', 'KB', 'MB', 'GB'];

/** "12.3 MB", "5 MB", "800 KB": what an editor reads, not a byte count. */
export function formatBytes(bytes: number): string {
  const unit = Math.max(0, UNITS.filter((_, i) => bytes >= 1024 ** i).length - 1);
  const value = bytes / 1024 ** unit;
  return `${unit === 0 ? Math.round(value) : Math.round(value * 10) / 10} ${UNITS[unit]}`;
}

export const MIME_BY_EXT: Record<string, string> = {
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.svg': 'image/svg+xml',
  '.avif': 'image/avif',
  '.bmp': 'image/bmp',
  '.tif': 'image/tiff',
  '.tiff': 'image/tiff',
  '.ico': 'image/x-icon',
  '.mp4': 'video/mp4',
  '.webm': 'video/webm',
  '.mov': 'video/quicktime',
  '.mp3': 'audio/mpeg',
  '.pdf': 'application/pdf',
};

const extOf = (name: string): string => /\.[a-z0-9]+$/i.exec(name)?.[0].toLowerCase() ?? '';

function baseName(url: string): string {
  const clean = url.split(/[?#]/)[0];
  const last = clean.split('/').filter(Boolean).pop() ?? 'file';
  try {
    return decodeURIComponent(last);
  } catch {
    return last;
  }
}

function asFile(value: unknown, field: string, path: string): MediaFileObject | undefined {
  // A multiple media field gives a list; the remote holds one media per object.
  const first = itemsOf(value)[0];
  if (first === undefined || first === '') return undefined;
  if (typeof first === 'string') return { url: first };
  if (typeof first === 'object' && typeof (first as MediaFileObject).url === 'string')
    return first as MediaFileObject;
  throw new MappingError(field, `expected a media file at '${path}', got ${show(first)}`);
}

const PLACEHOLDER_PREFIX = 'location-content-media:';

type Limits = Pick<MappingContext, 'readMedia' | 'maxMediaBytes'>;

const tooBig = (field: string, name: string, bytes: number, limit: number) =>
  new MappingError(field, `${name} is ${formatBytes(bytes)}, the limit is ${formatBytes(limit)}`);

/** A file's bytes in base64, with the limits the remote needs checked on what was really read. */
async function readBase64(
  { file, name, field }: Omit<DeferredMedia, 'remoteField' | 'placeholder'>,
  ctx: Limits
) {
  const bytes = await ctx.readMedia(file);
  if (bytes.length > ctx.maxMediaBytes) throw tooBig(field, name, bytes.length, ctx.maxMediaBytes);
  if (bytes.length === 0) throw new MappingError(field, `${name} is empty (0 bytes)`);
  return bytes.toString('base64');
}

/** A Strapi media value as the remote's `{content, name, type}`; with `mediaIdentity`, read later. */
export async function mediaFileOf(
  value: unknown,
  field: string,
  path: string,
  ctx: Limits & Pick<MappingContext, 'mediaIdentity'>,
  onDeferred?: (placeholder: string, file: MediaFileObject, name: string) => void
): Promise<MediaFile | undefined> {
  const file = asFile(value, field, path);
  if (!file) return undefined;
  let name = (typeof file.name === 'string' && file.name.trim()) || baseName(file.url);
  if (extOf(name) === '' && typeof file.ext === 'string' && file.ext.startsWith('.'))
    name += file.ext;

  // Strapi's `size` is in kilobytes; checked first, an oversized video is never read into memory.
  const stored = Number.isFinite(file.size) ? (file.size as number) * 1024 : 0;
  if (stored > ctx.maxMediaBytes * 1.01) throw tooBig(field, name, stored, ctx.maxMediaBytes);
  const mime =
    typeof file.mime === 'string' && file.mime.includes('/')
      ? file.mime
      : (MIME_BY_EXT[extOf(name)] ??
        MIME_BY_EXT[extOf(baseName(file.url))] ??
        'application/octet-stream');

  // A map shows pictures: a category icon must be an image, a pin's or event's media an image or a video.
  const accepted = field === 'image' ? ['image/'] : ['image/', 'video/'];
  if (!accepted.some((prefix) => mime.startsWith(prefix)))
    throw new MappingError(
      field,
      `${name} is ${mime}; only ${field === 'image' ? 'images' : 'images and videos'} can be sent`
    );

  const identity = onDeferred ? ctx.mediaIdentity?.(file) : undefined;
  if (identity !== undefined && onDeferred) {
    const placeholder = `${PLACEHOLDER_PREFIX}${createHash('sha256').update(`${identity}\n${ctx.maxMediaBytes}`).digest('hex')}`;
    onDeferred(placeholder, file, name);
    return { content: placeholder, name, type: mime };
  }
  return { content: await readBase64({ file, name, field }, ctx), name, type: mime };
}

/** The payload with its deferred media read in, right before it is sent; a MappingError when a file turns out too big or empty. */
export async function loadMedia<P extends object>(
  payload: P,
  deferred: DeferredMedia[] | undefined,
  ctx: Limits
): Promise<P> {
  if (!deferred?.length) return payload;
  // P is a request interface (no index signature): the remote fields are looked up by name here.
  const out = { ...payload } as Record<string, unknown>;
  for (const d of deferred) {
    const current = out[d.remoteField] as { content?: unknown } | null | undefined;
    if (!current || current.content !== d.placeholder) continue;
    out[d.remoteField] = extend(current, { content: await readBase64(d, ctx) });
  }
  return out as P;
}
