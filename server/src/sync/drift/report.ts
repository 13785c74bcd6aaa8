import type { DriftGroup } from '../../../../shared/contracts/drift';

export type {
  DriftChanged,
  DriftCounts,
  DriftEntryRef,
  DriftGroup,
  DriftMembership,
  DriftNotOurs,
  DriftReport,
  FieldChange,
  RepairOutcome,
  ScheduledRun,
} from '../../../../shared/contracts/drift';

export const DRIFT_GROUPS: DriftGroup[] = ['missing', 'changed', 'notOurs', 'membership'];
