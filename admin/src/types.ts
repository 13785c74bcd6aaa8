/** Shapes of the plugin's admin API (server/src/sync/types.ts, server/src/controllers). */
import type { PushEnvironment, PushTarget } from '../../shared/contracts/environment';

export type { PushEnvironment, PushTarget };
export type SyncStatus = 'pending' | 'synced' | 'failed' | 'orphaned' | 'skipped';
export type ResourceKind = 'pinpoint' | 'event' | 'category' | 'list';

export const STATUSES: SyncStatus[] = ['synced', 'pending', 'failed', 'skipped', 'orphaned'];

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
  queued: boolean;
  /** the object's page, from the config's viewUrl */
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
  rate: number;
  etaMs: number | null;
  error?: string | null;
}

/** An entry key with the entry's title (its Content Manager main field), when it has one. */
export interface LabelledKey extends EntryKey {
  label?: string | null;
}

export interface DryRunPlan {
  create: LabelledKey[];
  update: LabelledKey[];
  delete: LabelledKey[];
  unchanged: number;
  failed: Array<LabelledKey & { reason: string }>;
  truncatedAt: number;
}

export interface FailedEntry extends LabelledKey {
  resource: ResourceKind;
  reason: string;
  at: string | null;
  attempts: number;
  remoteId: number | null;
  viewUrl: string | null;
}

export interface SyncStatusReport {
  counts: Record<SyncStatus, number>;
  byContentType: Array<{ contentType: string; resource: ResourceKind; counts: Record<SyncStatus, number> }>;
  queue: { depth: number; due: number; inFlight: number };
  rateLimit: { pauses: number; pausedUntil: string | null; requestsPerSecond: number; concurrency: number };
  resync: ResyncProgress | null;
  failed: FailedEntry[];
  configured: boolean;
  environment: PushEnvironment;
  target: PushTarget;
}

export type CredentialField = 'baseUrl' | 'clientId' | 'clientSecret';

export interface PublicSettings {
  baseUrl: string | null;
  clientId: string | null;
  secretSet: boolean;
  secretLast4: string | null;
  locked: Partial<Record<CredentialField, string>>;
  configured: boolean;
}

export interface MappingView {
  index: number;
  contentType: string;
  displayName: string;
  kind: 'collectionType' | 'singleType' | null;
  localized: boolean;
  draftAndPublish: boolean;
  resource: ResourceKind;
  fields: Record<string, unknown>;
  hasTransform: boolean;
  problems: string[];
  active: boolean;
}

export interface ConnectionTestResult {
  ok: boolean;
  host: string | null;
  message: string;
  detail?: string;
  code?: string;
  status?: number;
  pinpoints?: number;
  sample?: Array<{ id: number; name: string }>;
  durationMs: number;
}
