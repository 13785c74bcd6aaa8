/** The sync's shapes the admin and scripts read: declared once, in the contract. */
export type {
  DryRunPlan,
  EntryKey,
  EntryState,
  ResyncProgress,
  SyncStatus,
  SyncStatusReport,
} from '../../../../shared/contracts/sync';
