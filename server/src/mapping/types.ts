import type {
  CategoryRequest,
  EventRequest,
  ListRequest,
  PinpointRequest,
  ResourceKind,
} from '../remote/types';

export type { Entry, Mapping } from '../config/types';
export type { ResourceKind } from '../remote/types';

/** One attribute as `strapi.getModel(uid).attributes[name]` gives it; only the keys the mapping reads are typed. */
export interface SchemaAttribute {
  type: string;
  component?: string;
  repeatable?: boolean;
  relation?: string;
  target?: string;
  multiple?: boolean;
  [key: string]: unknown;
}

export interface SchemaModel {
  modelType?: string;
  attributes: Record<string, SchemaAttribute>;
  /** only the keys the plugin reads; Strapi's own `SchemaPluginOptions` is `object`-typed */
  pluginOptions?: { i18n?: { localized?: boolean }; [plugin: string]: unknown };
  options?: { draftAndPublish?: boolean };
  /** the name the admin shows for the model (a component's, in messages to the editor) */
  info?: { displayName?: string };
}

/** `strapi.getModel(uid)`: content types and components (component uids look like 'shared.geo'). */
export type StrapiSchemaLookup = (uid: string) => SchemaModel | undefined;

export interface EntryRef {
  contentType: string;
  documentId: string;
  locale?: string | null;
}

/** `read`: a value was read through the related entry (e.g. tags from its name) */
export type RefRole = 'category' | 'pinpoint' | 'list' | 'member' | 'read';

export interface MediaFileObject {
  url: string;
  mime?: string;
  name?: string;
  ext?: string;
  /** Strapi stores this in kilobytes */
  size?: number;
  [key: string]: unknown;
}

export interface MappingContext {
  getModel: StrapiSchemaLookup;
  /** undefined while the related entry is not synced */
  remoteIdOf(ref: EntryRef): Promise<number | undefined>;
  readMedia(file: MediaFileObject): Promise<Buffer>;
  maxMediaBytes: number;
  // Public origin of this Strapi: relative media URLs in descriptions (/uploads/x.png) are made
  // absolute with it, because the remote renders the HTML far away from Strapi.
  publicUrl?: string;
  // A media file's stable identity (url, hash, size, update time): the payload's `content` is a
  // placeholder made from it, the bytes are read by `loadMedia` only when it is sent.
  mediaIdentity?(file: MediaFileObject): string | undefined;
}

/** A media file whose bytes are read only when the payload is sent (see `mediaIdentity`). */
export interface DeferredMedia {
  /** the remote field ('media_file' or 'image_file') and the mapping field it comes from */
  remoteField: 'media_file' | 'image_file';
  field: string;
  placeholder: string;
  file: MediaFileObject;
  name: string;
}

export type RemotePayload = PinpointRequest | EventRequest | CategoryRequest | ListRequest;

export interface UpsertOutcome {
  action: 'upsert';
  resource: ResourceKind;
  payload: RemotePayload;
  /** list: remote ids of member pinpoints; pinpoint with `lists`: remote ids of the lists it belongs to */
  members?: number[];
  /** every related entry this payload used (to re-queue dependants when they change) */
  refs: Array<EntryRef & { role: RefRole }>;
  /** related entries without a remote id yet: category/pinpoint ones block the push, member/list ones do not */
  unresolved: Array<EntryRef & { role: RefRole; blocking: boolean }>;
  deferredMedia?: DeferredMedia[];
}

export type MapOutcome = UpsertOutcome | { action: 'skip'; reason: string };

export type Expect =
  | { kind: 'text' | 'html' | 'number' | 'coordinates' | 'tags' | 'media' | 'dates' }
  | { kind: 'relation'; resource: Exclude<ResourceKind, 'event'>; single: boolean };

/**
 * The field map's vocabulary: what each remote field reads from an entry, per resource, in the
 * order mapEntry reads them (and reports their problems).
 */
export const FIELD_SPECS: Record<ResourceKind, Record<string, Expect>> = {
  pinpoint: {
    name: { kind: 'text' },
    description: { kind: 'html' },
    address: { kind: 'text' },
    latitude: { kind: 'number' },
    longitude: { kind: 'number' },
    coordinates: { kind: 'coordinates' },
    altitude: { kind: 'number' },
    tags: { kind: 'tags' },
    media: { kind: 'media' },
    media_credits: { kind: 'text' },
    category: { kind: 'relation', resource: 'category', single: true },
    lists: { kind: 'relation', resource: 'list', single: false },
  },
  event: {
    name: { kind: 'text' },
    description: { kind: 'html' },
    dates: { kind: 'dates' },
    pinpoint: { kind: 'relation', resource: 'pinpoint', single: true },
    tags: { kind: 'tags' },
    media: { kind: 'media' },
    media_credits: { kind: 'text' },
  },
  category: { name: { kind: 'text' }, image: { kind: 'media' } },
  list: {
    name: { kind: 'text' },
    description: { kind: 'html' },
    pinpoints: { kind: 'relation', resource: 'pinpoint', single: false },
  },
};
