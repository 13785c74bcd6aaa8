/**
 * Public types of the Location Content REST API v3.0 emulator.
 * Everything here is plain data: it crosses the control API as JSON unchanged.
 */

/** How PUT treats fields the request omits. */
export type PutMode = 'merge' | 'replace';

/**
 * How event dates are rendered in responses (the instant is always the same):
 * - 'ms-utc'       2018-02-16T20:00:00.000Z        (the contract's form, default)
 * - 'utc-offset'   2018-02-16T20:00:00+00:00       (Python isoformat: fraction only when non-zero, 6 digits)
 * - 'microseconds' 2018-02-16T20:00:00.000000Z
 * - 'local-offset' 2018-02-16T22:00:00.000+02:00   (same instant seen from UTC+2)
 * - 'mixed'        cycles through the four forms above, date by date
 */
export type DateStyle = 'ms-utc' | 'utc-offset' | 'microseconds' | 'local-offset' | 'mixed';

export interface RateLimitConfig {
  /** Sustained requests per second per client (tokens added to the bucket per second). */
  rate: number;
  /** Bucket size: requests that may go out at once. */
  burst: number;
  /** Also count POST /v3.0/oauth2/token against the client's bucket. Default false. */
  includeTokenRequests?: boolean;
}

/** Settings that can change while the emulator runs (PUT /__emulator/config, emu.configure()). */
export interface EmulatorConfig {
  putMode: PutMode;
  /** Reject (400 {"<field>":["Unknown field."]}) any field or query parameter the contract does not list. */
  strict: boolean;
  pageSize: number;
  maxMediaBytes: number;
  /** null: no rate limit. */
  rateLimit: RateLimitConfig | null;
  dateStyle: DateStyle;
  /** expires_in of new tokens, seconds. */
  tokenTtl: number;
  /** Full pinpoints carry extra fields of the real service (created, updated, status, external_data). */
  extraFields: boolean;
  /** Deleting a pinpoint deletes its events (assumed of the real service; not documented). */
  pinpointDeleteTakesEvents: boolean;
  /**
   * 'cursor': opaque signed cursors (hand-built page parameters get a 400). 'offset': the real
   * service's `limit`/`offset` inside the links, where a delete during a walk shifts what follows.
   */
  pagination: 'cursor' | 'offset';
  /** Pinpoint coordinates stored rounded to this many decimals (5 is about 1 m); null keeps them as sent. */
  coordinateDecimals: number | null;
}

export interface EmulatorClient {
  clientId: string;
  clientSecret: string;
  /** Space-separated scopes. 'write read' (default) may write; 'read' may only read (writes get 403). */
  scope?: string;
}

export type FaultKind =
  | 'status'
  | 'latency'
  | 'reset-before'
  | 'reset-after'
  | 'garble-after'
  | 'revoke-tokens'
  | 'hold'
  | 'pass';

/**
 * One fault. Filters: method and pathPrefix (both optional, default: every request outside /__emulator/).
 * - 'status'        answer `status` (default 503) instead of handling the request; nothing is stored.
 *                   Body: an HTML page like a proxy's (or `body`); `retryAfter` adds a Retry-After header.
 * - 'latency'       only delay the request by `latencyMs` (fixed, or [min, max] uniformly).
 * - 'reset-before'  destroy the socket (TCP RST) before the request is applied: nothing stored.
 * - 'reset-after'   apply the request (the object IS stored), then destroy the socket instead of answering.
 * - 'garble-after'  apply the request (the object IS stored), then answer its status with a body the
 *                   client cannot read: `body` (a string is sent as text/html, JSON as JSON: `{}` has
 *                   no id), or without `body` the real JSON answer cut short.
 * - 'revoke-tokens' revoke every bearer token, then handle the request (which then gets 401).
 * - 'hold'          wait, unanswered, until the handle's release(); then handle the request. A test
 *                   holds the work under way at a point it chooses instead of guessing with a delay.
 * - 'pass'          (script only) let one matching request through untouched by the script.
 * `latencyMs` may be given on any kind: the delay comes first.
 */
export interface FaultSpec {
  kind: FaultKind;
  status?: number;
  body?: string | Record<string, unknown> | unknown[];
  retryAfter?: number;
  latencyMs?: number | [number, number];
  method?: string | string[];
  pathPrefix?: string;
  /** Rules only: chance in [0, 1] that the rule fires on a matching request. Default 1. */
  probability?: number;
}

export interface FaultsConfig {
  /** Standing rules: every matching request rolls each rule's probability. */
  rules?: FaultSpec[];
  /** One-shot queue: each request consumes the first entry whose filter it matches, in order. */
  script?: FaultSpec[];
  /** Seed for the probability rolls (deterministic runs). */
  seed?: number;
}

export interface EmulatorOptions extends Partial<EmulatorConfig> {
  /** Port on 127.0.0.1; 0 (default) picks a free one. */
  port?: number;
  /** Default client (ignored when `clients` is given). Defaults: demo-client / demo-secret / 'write read'. */
  clientId?: string;
  clientSecret?: string;
  scope?: string;
  /** All clients; the first one is the handle's clientId/clientSecret. */
  clients?: EmulatorClient[];
  faults?: FaultsConfig;
  /** Size of the request log ring buffer. Default 10,000. */
  requestLogSize?: number;
  /** Largest request body accepted (413 above). Default: room for a base64 media of maxMediaBytes + 1 MiB. */
  maxBodyBytes?: number;
  /** Called with one line per request (for the CLI's --verbose). */
  logger?: (line: string) => void;
}

export interface DateRangeOut {
  start: string;
  end: string;
}

export interface MediaMeta {
  id: number;
  owner: { kind: 'pinpoint' | 'event' | 'category'; id: number };
  url: string;
  path: string;
  name: string;
  type: string;
  size: number;
  sha256: string;
}

export interface PinpointState {
  id: number;
  name: string;
  description: string;
  address: string;
  latitude: number;
  longitude: number;
  altitude: number | null;
  category: number | null;
  tags: string[];
  media_credits: string;
  media_url: string | null;
  /** Ids of the lists this pinpoint belongs to. */
  lists: number[];
  created: string;
  updated: string;
}

export interface EventState {
  id: number;
  name: string;
  description: string;
  /** Always the ms-UTC form here, whatever dateStyle says. */
  dates: DateRangeOut[];
  pinpoint: number;
  tags: string[];
  media_credits: string;
  media_url: string | null;
  created: string;
  updated: string;
}

export interface CategoryState {
  id: number;
  name: string;
  image_url: string | null;
  created: string;
  updated: string;
}

export interface ListState {
  id: number;
  name: string;
  description: string;
  /** Pinpoint ids, ascending. */
  members: number[];
  created: string;
  updated: string;
}

export interface EmulatorState {
  pinpoints: PinpointState[];
  events: EventState[];
  categories: CategoryState[];
  lists: ListState[];
  media: MediaMeta[];
  /** Tokens currently valid (not expired, not revoked). */
  activeTokens: number;
}

export interface RequestLogEntry {
  seq: number;
  /** Arrival time, ISO 8601. */
  time: string;
  method: string;
  /** Path with query string. */
  path: string;
  /** Status sent; null when the connection was reset instead (fault). */
  status: number | null;
  /** For 'reset-after': the status the request would have got (the change was applied). */
  appliedStatus?: number;
  durationMs: number;
  /** Client resolved from the bearer token or Basic header, when known. */
  clientId: string | null;
  /** Fault injected into this request, if any ('latency' included). */
  fault: FaultKind | null;
  /** Request headers; authorization is redacted to its scheme. */
  headers: Record<string, string>;
  /** Parsed JSON or form body; long strings (base64) shortened, client_secret redacted. */
  body?: unknown;
}

export interface RequestFilter {
  method?: string;
  pathPrefix?: string;
  /** Only entries with seq greater than this. */
  since?: number;
  /** Only the last N matching entries. */
  limit?: number;
}

export interface EmulatorStats {
  startedAt: string;
  total: number;
  byMethod: Record<string, number>;
  /** Path kinds like '/v3.0/pinpoints/:id', '/images/*', 'unknown'. */
  byPathKind: Record<string, number>;
  /** Status code (as string) → count; 'reset' for connections reset by a fault. */
  byStatus: Record<string, number>;
  /** "METHOD path-kind" → status → count. */
  byRoute: Record<string, Record<string, number>>;
  /** 429 answers (rate limit and injected). */
  throttled: number;
  resets: number;
  faultsInjected: number;
}

export interface TokenResponse {
  access_token: string;
  expires_in: number;
  scope: string;
  token_type: 'Bearer';
}

export type ResourceKind = 'pinpoints' | 'events' | 'categories' | 'lists';

export interface EmulatorHandle {
  /** http://127.0.0.1:PORT — the contract's {base_url}; API paths start with /v3.0. */
  baseUrl: string;
  port: number;
  /** Credentials of the first client. */
  clientId: string;
  clientSecret: string;
  /** Stop listening and close every connection (keep-alive ones too). Idempotent. */
  stop(): Promise<void>;
  /** Deep copy of everything stored. */
  state(): EmulatorState;
  requests(filter?: RequestFilter): RequestLogEntry[];
  clearRequests(): void;
  stats(): EmulatorStats;
  /**
   * Back to the start: data, media, id counters, request log, stats, faults, rate-limit buckets,
   * clock offset, config and clients (to the start options). Issued tokens stay valid unless `tokens: true`.
   */
  reset(opts?: { tokens?: boolean }): void;
  config(): EmulatorConfig;
  configure(patch: Partial<EmulatorConfig>): EmulatorConfig;
  /** Replace all faults (null clears them). */
  setFaults(faults: FaultsConfig | null): void;
  /** Append entries to the fault script. */
  scriptFaults(entries: FaultSpec[]): void;
  /** Current rules and what is left of the script. */
  faults(): FaultsConfig;
  clearFaults(): void;
  /** Let the requests held by a 'hold' fault go on; returns how many there were. */
  release(): number;
  /** How many requests a 'hold' fault holds now. */
  held(): number;
  /** Revoke every token, one token, or all tokens of one client. Returns how many were revoked. */
  revokeTokens(target?: string | { token?: string; clientId?: string }): number;
  /** Issue a token without HTTP (as POST /v3.0/oauth2/token would). */
  issueToken(clientId?: string): TokenResponse;
  /** Move the emulator's clock forward (token expiry, rate-limit refill). Returns the total offset. */
  advanceClock(ms: number): number;
  addClient(client: EmulatorClient): void;
  /**
   * Create an object as the API would (same validation; no auth, no faults, not logged).
   * Returns the response body. Throws EmulatorApiError (with .status and .body) on a 4xx.
   */
  create(kind: ResourceKind, body: unknown): Record<string, unknown>;
  /** Many creates at once (an account that already holds thousands of objects); returns the ids. */
  seed(kind: ResourceKind, bodies: unknown[]): number[];
  /**
   * Changes a stored object behind the API's back, past its validation: what an account may hold
   * from older rules or other clients (no name, coordinates out of range). `media_url` /
   * `image_url` point the object's media at any URL (null: none). Unknown ids throw.
   */
  tamper(kind: ResourceKind, id: number, patch: Record<string, unknown>): void;
}
