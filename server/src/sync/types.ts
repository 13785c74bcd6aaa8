import type { PushEnvironment, PushTarget } from '../../../shared/contracts/environment';
import type { ResourceKind } from '../remote/types';

export type SyncStatus = 'pending' | 'synced' | 'failed' | 'orphaned' | 'skipped';

/** One remote object per (content type, documentId, locale); locale '' when the type is not localized. */
export interface EntryKey {
  contentType: string;
  documentId: string;
  locale: string;
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
  create: EntryKey[];
  update: EntryKey[];
  delete: EntryKey[];
  unchanged: number;
  failed: Array<EntryKey & { reason: string }>;
  /** lists are truncated to this many items each */
  truncatedAt: number;
}

export interface SyncStatusReport {
  counts: Record<SyncStatus, number>;
  byContentType: Array<{ contentType: string; resource: ResourceKind; counts: Record<SyncStatus, number> }>;
  queue: { depth: number; due: number; inFlight: number };
  rateLimit: { pauses: number; pausedUntil: string | null; requestsPerSecond: number; concurrency: number };
  resync: ResyncProgress | null;
  failed: Array<EntryKey & { resource: ResourceKind; reason: string; at: string | null; attempts: number; remoteId: number | null; viewUrl: string | null }>;
  configured: boolean;
  environment: PushEnvironment;
  target: PushTarget;
}

/** `strapi.plugin('location-content').service('sync')` */
export interface SyncService {
  push(key: { contentType: string; documentId: string; locale?: string | null }): Promise<void>;
  pushMany(keys: Array<{ contentType: string; documentId: string; locale?: string | null }>): Promise<number>;
  resync(options?: { dryRun?: false }): Promise<ResyncProgress>;
  resync(options: { dryRun: true }): Promise<DryRunPlan>;
  retryFailed(): Promise<number>;
  status(options?: { failedLimit?: number }): Promise<SyncStatusReport>;
  stateOf(key: { contentType: string; documentId: string; locale?: string | null }): Promise<EntryState | null>;
  idle(options?: { timeoutMs?: number }): Promise<void>;
}
