/**
 * The sync routes of the admin API and the public sync service
 * (`strapi.plugin('location-content').service('sync')`): the shapes both sides read.
 */
import type { DriftGroup, DriftReport, KeptDrift, RepairOutcome, ScheduledRun } from './drift';
import type { PushAttempt } from './history';
import type { PayloadPreview } from './preview';
import type { InventoryProgress, LinkProposal } from './inventory';
import type { PushEnvironment, PushTarget } from './environment';
import type { ResourceKind } from './remote';
import type { ImportOptions, ImportPlan, ImportProgress } from './import';

/** In the order the admin shows them. */
export const STATUSES = ['synced', 'pending', 'failed', 'skipped', 'orphaned', 'imported'] as const;
export type SyncStatus = (typeof STATUSES)[number];

/** One remote object per (content type, documentId, locale); locale '' when the type is not localized. */
export interface EntryKey {
  contentType: string;
  documentId: string;
  locale: string;
}

/** An entry key with the entry's title (its Content Manager main field): the admin routes add it, the service does not. */
export interface LabelledKey extends EntryKey {
  label?: string | null;
}

export interface EntryState extends EntryKey {
  resource: ResourceKind;
  status: SyncStatus;
  remoteId: number | null;
  attempts: number;
  lastError: string | null;
  lastErrorAt: string | null;
  lastSyncedAt: string | null;
  mediaUrl: string | null;
  /** true while a push for this entry is waiting in the outbox or running */
  queued: boolean;
  /** the object's page on the map, from the config's viewUrl (admin routes only) */
  viewUrl?: string | null;
}

export interface ResyncProgress {
  id: string;
  state: 'running' | 'done' | 'failed' | 'cancelled';
  dryRun: boolean;
  startedAt: string;
  finishedAt: string | null;
  total: number;
  done: number;
  failed: number;
  skipped: number;
  /** entries per second over the last window */
  rate: number;
  /** ms left at the current rate, null when unknown */
  etaMs: number | null;
  error?: string | null;
}

export interface DryRunPlan {
  create: LabelledKey[];
  update: LabelledKey[];
  delete: LabelledKey[];
  unchanged: number;
  failed: Array<LabelledKey & { reason: string }>;
  /** lists are truncated to this many items each */
  truncatedAt: number;
}

export interface FailedEntry extends LabelledKey {
  resource: ResourceKind;
  reason: string;
  at: string | null;
  attempts: number;
  remoteId: number | null;
  /** the object's page, from the config's viewUrl */
  viewUrl: string | null;
}

export interface SyncStatusReport {
  counts: Record<SyncStatus, number>;
  byContentType: Array<{
    contentType: string;
    resource: ResourceKind;
    counts: Record<SyncStatus, number>;
  }>;
  queue: { depth: number; due: number; inFlight: number };
  rateLimit: {
    pauses: number;
    pausedUntil: string | null;
    requestsPerSecond: number;
    concurrency: number;
  };
  resync: ResyncProgress | null;
  /** the remote inventory: the walk under way or the last one, and what the table holds */
  inventory: InventoryProgress;
  /** the import job running or the last one; null before the first */
  import: ImportProgress | null;
  /** the scheduled check of the remote: off, or its rule and last run */
  reconcile: {
    cron: string | null;
    repair: string | null;
    lastRun: ScheduledRun | null;
    lastCheckAt: string | null;
  };
  failed: FailedEntry[];
  configured: boolean;
  /** why the credentials cannot be used, when they are set but unusable (a saved secret this app's keys cannot open) */
  credentialsError?: string | null;
  /** where this instance runs and whether it pushes there (config pushIn) */
  environment: PushEnvironment;
  /** the account changes go to: its host and the client id's last 4 characters */
  target: PushTarget;
  /** set while this instance cannot write changes to the outbox (they wait in its memory) */
  recording?: RecordingFailure | null;
}

/** Changes the server could not write to its outbox: kept in memory, bounded. */
export interface RecordingFailure {
  reason: string;
  since: string;
  waiting: number;
  /** changes of entries past the bound, not kept: a resync recovers them */
  dropped: number;
}

/** What `push` and `stateOf` take: locale null or absent means the default locale (or none). */
export interface KeyInput {
  contentType: string;
  documentId: string;
  locale?: string | null;
}

/** What `link` takes: without `dryRun: false` it only proposes, whatever `choices` says. */
export interface LinkOptions {
  /** true unless false: propose only, record nothing */
  dryRun?: boolean;
  /** picks for ambiguous entries: the entry's key (`contentType|documentId|locale`) -> a candidate's remote id, or null to skip it */
  choices?: Record<string, number | null>;
  /** most entries listed per group of the proposal (100) */
  limit?: number;
}

/**
 * The public API of `strapi.plugin('location-content').service('sync')`. Keys without a locale
 * name the default locale of a localized type.
 */
export interface SyncService {
  /** Queues one entry now; the push itself happens in the background. Throws if its type is not mapped. */
  push(key: KeyInput): Promise<void>;
  /** Queues entries; returns how many. Throws (queuing none) if one's type is not mapped. */
  pushMany(keys: KeyInput[]): Promise<number>;
  /** Starts (or joins) the background resync job and returns its progress. */
  resync(options?: { dryRun?: false }): Promise<ResyncProgress>;
  /** What a resync would do, without doing it. */
  resync(options: { dryRun: true }): Promise<DryRunPlan>;
  /** Every failed entry goes back to the queue, due at once; returns how many. */
  retryFailed(): Promise<number>;
  /** Walks the remote account into the inventory; resolves when complete, rejects when the walk stopped (it resumes at the next call). */
  inventory(): Promise<InventoryProgress>;
  /** Matches entries without a remote object with the objects no entry owns (after a complete walk); links them only with `dryRun: false`. */
  link(options?: LinkOptions): Promise<LinkProposal>;
  /** Import: the plan of what the remote objects no entry owns would become (walks the account first if it never was). */
  import(options: ImportOptions & { dryRun: true }): Promise<ImportPlan>;
  /** Starts (or joins) the background import job and returns its progress. */
  import(options?: ImportOptions & { dryRun?: false }): Promise<ImportProgress>;
  /** The import job running or the last one; null before the first. */
  importProgress(): Promise<ImportProgress | null>;
  /** Read-only: walks the account (unless `fresh: false`) and compares it with what was pushed; the report is kept. */
  check(options?: { fresh?: boolean }): Promise<DriftReport>;
  /** Queues the repairs of the chosen groups of the last report. */
  repair(options: { groups: DriftGroup[] }): Promise<RepairOutcome>;
  /** The last drift report, repair and scheduled run, as kept. */
  drift(): Promise<KeptDrift>;
  /** One firing of the scheduled check, as its cron runs it; null when another instance has it or none is configured. */
  reconcileNow(fireDate?: Date): Promise<ScheduledRun | null>;
  /** Counts, queue, rate limit, resync progress and the first `failedLimit` (100) failed entries. */
  status(options?: { failedLimit?: number }): Promise<SyncStatusReport>;
  /** One entry's sync state; null when it was never pushed nor queued. */
  stateOf(key: KeyInput): Promise<EntryState | null>;
  /** What the entry's draft and published versions would send now; nothing is sent. */
  previewOf(key: KeyInput): Promise<PayloadPreview[]>;
  /** The last attempts to push one entry, newest first. */
  historyOf(key: KeyInput): Promise<PushAttempt[]>;
  /**
   * Resolves when nothing is queued or in flight (a resync still listing entries included);
   * rejects with an Error after `timeoutMs` (default 60 000 ms) if work remains.
   */
  idle(options?: { timeoutMs?: number }): Promise<void>;
}

/** Admin routes, one namespace each: what the request carries and what the response holds. */

/** GET /location-content/status */
export declare namespace GetStatus {
  export type Response = SyncStatusReport;
}

/** GET /location-content/entries/:contentType/:documentId?locale= */
export declare namespace GetEntry {
  export interface Params {
    contentType: string;
    documentId: string;
  }
  export interface Query {
    locale?: string;
  }
  export interface Response {
    state: EntryState | null;
    environment: PushEnvironment;
  }
}

/** POST /location-content/push */
export declare namespace PushEntries {
  export interface Request {
    body: { contentType: string; documentIds: string[]; locale?: string | null };
  }
  export interface Response {
    queued: number;
  }
}

/** POST /location-content/resync */
export declare namespace Resync {
  export interface Request {
    body: { dryRun?: boolean };
  }
  export type Response = { job: ResyncProgress } | { plan: DryRunPlan };
}

/** POST /location-content/retry-failed */
export declare namespace RetryFailed {
  export interface Response {
    queued: number;
  }
}
