/**
 * Media: `media_file`/`image_file` ({content base64, name, type}) are decoded, stored in memory
 * and served back without auth at an absolute URL under /images/.
 */
import { createHash } from 'node:crypto';
import type { MediaMeta } from './types';

export type MediaOwnerKind = MediaMeta['owner']['kind'];

const FOLDER: Record<MediaOwnerKind, string> = {
  pinpoint: 'pps-picpoints',
  event: 'pps-events',
  category: 'pps-categories',
};

export interface StoredMedia extends MediaMeta {
  bytes: Buffer;
}

/** A decoded, validated media file not yet attached to an object. */
export interface DecodedMedia {
  bytes: Buffer;
  name: string;
  type: string;
}

export class MediaStore {
  private readonly byPath = new Map<string, StoredMedia>();
  private nextId = 1;

  constructor(private readonly baseUrl: () => string) {}

  add(m: DecodedMedia, owner: { kind: MediaOwnerKind; id: number }): StoredMedia {
    const id = this.nextId++;
    const safe = m.name.replace(/[^A-Za-z0-9._-]+/g, '_').slice(0, 100) || 'file';
    const path = `/images/${FOLDER[owner.kind]}/${id}-${safe}`;
    const stored: StoredMedia = {
      id,
      owner: { ...owner },
      url: this.baseUrl() + path,
      path,
      name: m.name,
      type: m.type,
      size: m.bytes.length,
      sha256: createHash('sha256').update(m.bytes).digest('hex'),
      bytes: m.bytes,
    };
    this.byPath.set(path, stored);
    return stored;
  }

  remove(media: StoredMedia | null): void {
    if (media) this.byPath.delete(media.path);
  }

  get(path: string): StoredMedia | undefined {
    return this.byPath.get(path);
  }

  list(): MediaMeta[] {
    return [...this.byPath.values()].map(({ bytes: _bytes, ...meta }) => ({
      ...meta,
      owner: { ...meta.owner },
    }));
  }

  clear(): void {
    this.byPath.clear();
    this.nextId = 1;
  }
}
