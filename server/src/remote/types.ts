/**
 * Shapes of the Location Content REST API v3.0, limited to the fields the contract lists.
 * Nothing outside this file's request types may ever be sent to the remote.
 */

export interface MediaFile {
  /** base64 of the bytes */
  content: string;
  name: string;
  /** media type, e.g. image/png */
  type: string;
}

export interface DateRange {
  /** ISO 8601 UTC with milliseconds: 2018-02-16T20:00:00.000Z */
  start: string;
  end: string;
}

export interface PinpointRequest {
  name?: string;
  description?: string;
  address?: string;
  latitude?: number;
  longitude?: number;
  altitude?: number;
  category?: number | null;
  tags?: string[];
  media_credits?: string;
  /** null removes the media the object has */
  media_file?: MediaFile | null;
}

/** The contract lists altitude in requests only; answers give the media as a URL. */
export interface Pinpoint extends Omit<PinpointRequest, 'altitude' | 'media_file'> {
  id: number;
  media_url?: string | null;
}

export interface CategoryRequest {
  name?: string;
  /** null removes the image the category has */
  image_file?: MediaFile | null;
}

export interface Category extends Omit<CategoryRequest, 'image_file'> {
  id: number;
  image_url?: string | null;
}

export interface EventRequest {
  name?: string;
  description?: string;
  dates?: DateRange[];
  pinpoint?: number;
  tags?: string[];
  media_credits?: string;
  /** null removes the media the object has */
  media_file?: MediaFile | null;
}

/** The contract lists pinpoint in requests only; answers give the media as a URL. */
export interface RemoteEvent extends Omit<EventRequest, 'pinpoint' | 'media_file'> {
  id: number;
  media_url?: string | null;
}

export interface ListRequest {
  name?: string;
  description?: string;
}

/** The contract does not show list response bodies: only `id` is relied upon. */
export interface RemoteList extends ListRequest {
  id: number;
}

export interface MembershipResult {
  /** entries are undocumented: kept as received */
  errors: unknown[];
  total: number;
}

export interface Page<T> {
  count?: number;
  next: string | null;
  previous: string | null;
  results: T[];
}

export type { ResourceKind } from '../../../shared/contracts/remote';
