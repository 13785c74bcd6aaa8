// Shapes of the Location Content REST API v3.0, limited to the fields the contract lists. Nothing
// outside this file's request types may ever be sent to the remote.

export interface MediaFile {
  content: string; // base64 of the bytes
  name: string;
  type: string; // media type, e.g. image/png
}

/** ISO 8601 UTC with milliseconds: 2018-02-16T20:00:00.000Z */
export interface DateRange {
  start: string;
  end: string;
}

/** What pinpoints and events share; a null media_file removes the media the object has. */
interface ContentRequest {
  name?: string;
  description?: string;
  tags?: string[];
  media_credits?: string;
  media_file?: MediaFile | null;
}

export interface PinpointRequest extends ContentRequest {
  address?: string;
  latitude?: number;
  longitude?: number;
  altitude?: number;
  category?: number | null;
}

/** An answer: its request's fields less those the contract lists in requests only, the media as a URL. */
type Answer<R, RequestOnly extends keyof R> = Omit<R, RequestOnly | 'media_file'> & {
  id: number;
  media_url?: string | null;
};

export type Pinpoint = Answer<PinpointRequest, 'altitude'>;

export interface CategoryRequest {
  name?: string;
  image_file?: MediaFile | null; // null removes the image the category has
}

export interface Category extends Omit<CategoryRequest, 'image_file'> {
  id: number;
  image_url?: string | null;
}

export interface EventRequest extends ContentRequest {
  dates?: DateRange[];
  pinpoint?: number;
}

export type RemoteEvent = Answer<EventRequest, 'pinpoint'>;

export interface ListRequest {
  name?: string;
  description?: string;
}

/** The contract does not show list response bodies: only `id` is relied upon. */
export interface RemoteList extends ListRequest {
  id: number;
}

/** `errors` entries are undocumented: kept as received. */
export interface MembershipResult {
  errors: unknown[];
  total: number;
}

export interface Page<T> {
  count?: number;
  next: string | null;
  previous: string | null;
  results: T[];
}

export { RESOURCES, type ResourceKind } from '../../../shared/contracts/remote';
