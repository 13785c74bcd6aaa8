/** The sync's shapes the admin and scripts read: declared once, in the contract. */
export type {
  DryRunPlan,
  EntryKey,
  EntryState,
  ResyncProgress,
  SyncService,
  SyncStatus,
  SyncStatusReport,
} from '../../../../shared/contracts/sync';
