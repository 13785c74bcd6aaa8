import type { ResourceKind } from '../remote/types';

/**
 * A field source: a dotted path into the entry (components, JSON, relations),
 * or an object with the path and options.
 */
export type FieldPath = string;

export interface FieldOptions {
  path: FieldPath;
  /** value used when the path is empty */
  default?: unknown;
}

export type FieldSource = FieldPath | FieldOptions;

/**
 * Repeatable component / to-many relation / JSON array of ranges (or plain dates), or, without
 * `path`, two date fields of the entry itself: `{ start: 'startsAt', end: 'endsAt' }`.
 */
export interface DatesSource {
  /** where the ranges are; omitted when start and end are fields of the entry itself */
  path?: FieldPath;
  /** key (or dotted path) of the start inside each item, or in the entry without `path` (default 'start') */
  start?: string;
  /** key of the end (default 'end'); an empty end makes the range an instant: end = start */
  end?: string;
}

/** A relation whose related entries' field becomes a tag each, or a string list / JSON array. */
export interface TagsOptions {
  path: FieldPath;
  /** for a relation or array of objects: which key of each item is the tag (default 'name') */
  key?: string;
}

export interface PinpointFields {
  name: FieldSource;
  description?: FieldSource;
  address?: FieldSource;
  latitude?: FieldSource;
  longitude?: FieldSource;
  /** one JSON / component field holding both coordinates ({lat,lng}, {latitude,longitude}, [lng,lat] GeoJSON point) */
  coordinates?: FieldSource;
  altitude?: FieldSource;
  tags?: FieldSource | TagsOptions;
  media?: FieldSource;
  media_credits?: FieldSource;
  /** relation to an entry of a content type mapped to `category` */
  category?: FieldSource;
  /** relation to entries of a content type mapped to `list` (membership kept from this side) */
  lists?: FieldSource;
}

export interface EventFields {
  name: FieldSource;
  description?: FieldSource;
  dates: DatesSource | FieldSource;
  /** relation to an entry of a content type mapped to `pinpoint` */
  pinpoint: FieldSource;
  tags?: FieldSource | TagsOptions;
  media?: FieldSource;
  media_credits?: FieldSource;
}

export interface CategoryFields {
  name: FieldSource;
  image?: FieldSource;
}

export interface ListFields {
  name: FieldSource;
  description?: FieldSource;
  /** relation to entries of a content type mapped to `pinpoint` */
  pinpoints?: FieldSource;
}

export interface FieldsByResource {
  pinpoint: PinpointFields;
  event: EventFields;
  category: CategoryFields;
  list: ListFields;
}

/** A populated entry of a content type the plugin does not know: users' transforms read and change it as they see fit. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- unknown would make every user transform cast
export type Entry = Record<string, any>;

interface MappingBase<R extends ResourceKind> {
  contentType: string;
  resource: R;
  fields: FieldsByResource[R];
  /** runs on the populated entry before the field map; may return a changed copy, or null to skip (remove remote) */
  transform?: (entry: Entry) => Entry | null | Promise<Entry | null>;
  /**
   * Import only: the inverse of `transform`. Gets the data the field map wrote back from a remote
   * object (and that object, documented fields only) and returns the data to create the entry
   * with, or null to leave the object out. Without it, a mapping with a `transform` is not
   * imported: what the transform computes cannot be undone by reading the paths backwards.
   */
  inverse?: (data: Entry, remote: Record<string, unknown>) => Entry | null | Promise<Entry | null>;
}

export type Mapping =
  MappingBase<'pinpoint'> | MappingBase<'event'> | MappingBase<'category'> | MappingBase<'list'>;

export interface AlertsConfig {
  /** addresses, sent through Strapi's email plugin */
  email?: string[];
  /** a URL receiving each alert as a JSON POST */
  webhook?: string;
  /** minutes with work due and no push finished before the queue counts as stuck */
  stuckMinutes?: number;
  /** at most one alert of each kind per this many minutes */
  intervalMinutes?: number;
}

export interface RateLimitConfig {
  requestsPerSecond: number;
  concurrency: number;
}

/** A scheduled check of the remote against Strapi, and which repairs follow it without asking. */
export interface ReconcileConfig {
  /** a cron rule, as Strapi's cron takes it: '0 3 * * *' */
  cron: string;
  /** none: report only; missing: recreate the objects gone from the remote; all: every repair group */
  repair: 'none' | 'missing' | 'all';
}

export interface PluginConfig {
  baseUrl?: string;
  clientId?: string;
  clientSecret?: string;
  rateLimit: RateLimitConfig;
  mappings: Mapping[];
  /** ms before a remote call is abandoned */
  requestTimeoutMs: number;
  /** largest media file sent, in bytes */
  maxMediaBytes: number;
  /** pushes go out only when true; off in scripts that must not touch the remote */
  syncEnabled: boolean;
  /** NODE_ENV values where pushes go out (e.g. ['production']); elsewhere changes are only recorded. Unset: everywhere. */
  pushIn?: string[];
  /** per resource, the page showing a remote object: a URL template with {id} (no default) */
  viewUrl?: Partial<Record<ResourceKind, string>>;
  /** alerts for unattended installs; off when unset */
  alerts?: AlertsConfig;
  /** outbox rows claimed per worker round */
  batchSize: number;
  /** how long a claimed row stays leased to a worker */
  leaseMs: number;
  /** retry backoff: base and cap, in ms */
  retry: { baseMs: number; maxMs: number; maxAttempts: number };
  /**
   * Editors' saves of one entry coalesce: its push waits until no save came for `settleMs`,
   * but never more than `maxWaitMs` after the first save of a burst.
   */
  coalesce: { settleMs: number; maxWaitMs: number };
  /** off when absent or null */
  reconcile?: ReconcileConfig | null;
  /**
   * Walk the remote account into the inventory once, in the background behind the pushes, when
   * it is linked (credentials set, or naming another account) and it was never walked: a create
   * whose answer is lost is then found by reading the end of that walk, and existing content can
   * be linked. On by default.
   */
  walkOnLink?: boolean;
  /**
   * On SQLite, run `PRAGMA optimize` on the application's database at boot and when a resync
   * starts, so that a resync reads components through the right index. Off by default: it writes
   * SQLite's statistics into the host's database.
   */
  sqliteOptimize?: boolean;
}
