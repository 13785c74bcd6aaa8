import type { ResourceKind } from '../../remote/types';
import type { FieldChange } from './fields';

export type DriftGroup = 'missing' | 'changed' | 'notOurs' | 'membership';
export const DRIFT_GROUPS: DriftGroup[] = ['missing', 'changed', 'notOurs', 'membership'];

export interface DriftEntryRef {
  contentType: string;
  documentId: string;
  /** '' for content types without locales */
  locale: string;
  resource: ResourceKind;
  remoteId: number;
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
