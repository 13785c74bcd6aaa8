import type { ResourceKind } from '../remote/types';

/** A dotted path into the entry (components, JSON, relations). */
export type FieldPath = string;

/** `default`: the value used when the path is empty. */
export interface FieldOptions {
  path: FieldPath;
  default?: unknown;
}

export type FieldSource = FieldPath | FieldOptions;

/**
 * Repeatable component / to-many relation / JSON array of ranges (or plain dates), or, without
 * `path`, two date fields of the entry itself: `{ start: 'startsAt', end: 'endsAt' }`.
 */
export interface DatesSource {
  path?: FieldPath;
  /** key (or dotted path) of the start in each item, or in the entry without `path` (default 'start') */
  start?: string;
  /** default 'end'; an empty end makes the range an instant: end = start */
  end?: string;
}

/** A relation, string list or JSON array; `key`: which key of each related entry or object is the tag (default 'name'). */
export interface TagsOptions {
  path: FieldPath;
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
  category?: FieldSource; // a relation to an entry mapped to `category`
  lists?: FieldSource; // relations to entries mapped to `list` (membership kept from this side)
}

export interface EventFields {
  name: FieldSource;
  description?: FieldSource;
  dates: DatesSource | FieldSource;
  pinpoint: FieldSource; // a relation to an entry mapped to `pinpoint`
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
  pinpoints?: FieldSource; // relations to entries mapped to `pinpoint`
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
   * Import only: the inverse of `transform`, from the data the field map wrote back (and the remote
   * object) to the data to create the entry with, or null to leave the object out. Without it a
   * mapping with a `transform` is not imported: reading the paths backwards cannot undo it.
   */
  inverse?: (data: Entry, remote: Record<string, unknown>) => Entry | null | Promise<Entry | null>;
}

export type Mapping = { [R in ResourceKind]: MappingBase<R> }[ResourceKind];

/**
 * `email` goes through Strapi's email plugin, `webhook` gets each alert as a JSON POST; the queue
 * is stuck after `stuckMinutes` with work due and no push finished; one alert of each kind per
 * `intervalMinutes` at most.
 */
export interface AlertsConfig {
  email?: string[];
  webhook?: string;
  stuckMinutes?: number;
  intervalMinutes?: number;
}

/** A scheduled check of the remote against Strapi, and which repairs follow it without asking. */
export interface ReconcileConfig {
  cron: string; // as Strapi's cron takes it: '0 3 * * *'
  /** none: report only; missing: recreate the objects gone from the remote; all: every repair group */
  repair: 'none' | 'missing' | 'all';
}

export interface PluginConfig {
  baseUrl?: string;
  clientId?: string;
  clientSecret?: string;
  rateLimit: { requestsPerSecond: number; concurrency: number };
  mappings: Mapping[];
  requestTimeoutMs: number;
  maxMediaBytes: number; // the largest media file sent
  /** pushes go out only when true; off in scripts that must not touch the remote */
  syncEnabled: boolean;
  /** NODE_ENV values where pushes go out (e.g. ['production']); elsewhere changes are only recorded. Unset: everywhere. */
  pushIn?: string[];
  /** per resource, the page showing a remote object: a URL template with {id} (no default) */
  viewUrl?: Partial<Record<ResourceKind, string>>;
  alerts?: AlertsConfig; // for unattended installs; off when unset
  batchSize: number; // outbox rows claimed per worker round
  leaseMs: number; // how long a claimed row stays leased to a worker
  retry: { baseMs: number; maxMs: number; maxAttempts: number }; // backoff base and cap
  /**
   * Editors' saves of one entry coalesce: its push waits until no save came for `settleMs`,
   * but never more than `maxWaitMs` after the first save of a burst.
   */
  coalesce: { settleMs: number; maxWaitMs: number };
  reconcile?: ReconcileConfig | null; // off when absent or null
  /**
   * Walk a newly linked account into the inventory once, behind the pushes: a create whose answer
   * is lost is then found at the end of that walk, and existing content can be linked.
   */
  walkOnLink?: boolean;
  /**
   * SQLite: `PRAGMA optimize` at boot and when a resync starts, so that a resync reads components
   * through the right index. Off by default: it writes statistics into the host's database.
   */
  sqliteOptimize?: boolean;
}
