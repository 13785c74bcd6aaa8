import type {
  CategoryRequest,
  EventRequest,
  ListRequest,
  PinpointRequest,
  ResourceKind,
} from '../remote/types';

export type { Entry, Mapping, FieldSource } from '../config/types';
export type { ResourceKind } from '../remote/types';

/** One attribute as `strapi.getModel(uid).attributes[name]` gives it; only the keys the mapping reads are typed. */
export interface SchemaAttribute {
  type: string;
  component?: string;
  repeatable?: boolean;
  components?: string[];
  relation?: string;
  target?: string;
  multiple?: boolean;
  /** Strapi: one kind or a list of kinds */
  allowedTypes?: string | Array<string | undefined> | null;
  customField?: string;
  [key: string]: unknown;
}

export interface SchemaModel {
  uid?: string;
  kind?: string;
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
  /** remote id of a related entry that is already synced, else undefined */
  remoteIdOf(ref: EntryRef): Promise<number | undefined>;
  /** bytes of a Strapi media file object */
  readMedia(file: MediaFileObject): Promise<Buffer>;
  maxMediaBytes: number;
  /** locale of the entry being mapped */
  locale?: string | null;
  // Public origin of this Strapi: relative media URLs in descriptions (/uploads/x.png) are made
  // absolute with it, because the remote renders the HTML far away from Strapi.
  publicUrl?: string;
  // A stable identity of a media file (url, hash, size, update time). When given, the payload's
  // `content` is a placeholder made from it (the hash changes exactly when the file does) and the
  // bytes are read by `loadMedia` only when the payload is really sent. Undefined: read now.
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
  /** media whose bytes are still to be read into the payload (`loadMedia`) */
  deferredMedia?: DeferredMedia[];
}

export type MapOutcome = UpsertOutcome | { action: 'skip'; reason: string };
