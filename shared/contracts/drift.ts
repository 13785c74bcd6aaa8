/**
 * Admin routes of drift: the check of the remote against Strapi, its repairs, the schedule.
 * Imported by the server and the admin with relative paths.
 */

import type { ResourceKind } from './remote';
export type { ResourceKind };

export interface FieldChange {
  field: string;
  /** as last pushed */
  before: unknown;
  /** as the remote holds it now */
  after: unknown;
}

export type DriftGroup = 'missing' | 'changed' | 'notOurs' | 'membership';

export interface DriftEntryRef {
  contentType: string;
  documentId: string;
  /** '' for content types without locales */
  locale: string;
  resource: ResourceKind;
  remoteId: number;
  /** the entry's title in the Content Manager (admin answers only) */
  label?: string | null;
}

export interface DriftChanged extends DriftEntryRef {
  fields: FieldChange[];
}

export interface DriftNotOurs {
  resource: ResourceKind;
  remoteId: number;
  name: string | null;
  /** false for categories: the API has no delete for them */
  deletable: boolean;
}

export interface DriftMembership extends DriftEntryRef {
  /** for a list: pinpoints it should hold and does not; for a pinpoint: lists that should hold it and do not */
  absent: number[];
  /** for a list: pinpoints it holds and should not */
  extra: number[];
}

export interface DriftCounts {
  missing: number;
  changed: number;
  membership: number;
  /** synced after the inventory walk of their resource began: left for the next check */
  newer: number;
}

export interface DriftReport {
  checkedAt: string;
  /** when the inventory walk the check read was complete */
  inventoryAt: string | null;
  byContentType: Array<{ contentType: string; resource: ResourceKind } & DriftCounts>;
  notOursByResource: Record<ResourceKind, number>;
  missing: DriftEntryRef[];
  changed: DriftChanged[];
  notOurs: DriftNotOurs[];
  membership: DriftMembership[];
  /** groups whose list was cut at `listLimit` items (the counts stay whole) */
  truncated: DriftGroup[];
  listLimit: number;
}

export interface RepairOutcome {
  at: string;
  groups: DriftGroup[];
  /** entries queued for a push, per group */
  queued: Partial<Record<DriftGroup, number>>;
  deleted: number;
  /** objects of the report left alone, with why */
  skipped: Array<{ resource: ResourceKind; remoteId: number; reason: string }>;
  errors: Array<{ resource: ResourceKind; remoteId: number; error: string }>;
}

export interface ScheduledRun {
  /** the time the cron rule fired for, the same on every instance */
  slot: string;
  instance: string;
  startedAt: string;
  finishedAt: string | null;
  outcome: 'running' | 'done' | 'failed';
  error: string | null;
  found: { missing: number; changed: number; membership: number; notOurs: number } | null;
  repair: RepairOutcome | null;
}

/** What the plugin keeps of the drift: the last report, repair and scheduled run (`sync.drift()`). */
export interface KeptDrift {
  report: DriftReport | null;
  lastRepair: RepairOutcome | null;
  /** the last scheduled run, by whichever instance ran it */
  scheduled: ScheduledRun | null;
}

/** GET /drift: the last report, repair and scheduled run, as kept. */
export declare namespace GetDrift {
  export interface Response extends KeptDrift {
    /** a check runs now (its report replaces this one when done) */
    checking: boolean;
    reconcile: { cron: string | null; repair: string | null };
  }
}

/** POST /drift/check: starts a check (an inventory walk first) in the background. */
export declare namespace CheckDrift {
  export interface Response {
    checking: true;
  }
}

/** POST /drift/repair: queues the repairs of the given groups of the last report. */
export declare namespace RepairDrift {
  export interface Request {
    groups: DriftGroup[];
  }
  export interface Response {
    outcome: RepairOutcome;
  }
}
