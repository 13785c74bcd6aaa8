/**
 * Content-API routes for scripts and CI, authorised by a Strapi API token:
 * `GET /api/location-content/status` (action `plugin::location-content.status.find`, read-only tokens allowed),
 * `POST /api/location-content/resync` (action `plugin::location-content.resync.create`).
 */
import type {
  DryRunPlan,
  ResyncProgress,
  SyncStatusReport,
} from '../../server/src/sync/shared/types';

export declare namespace GetStatus {
  export interface Request {
    query: Record<string, never>;
  }
  export type Response = SyncStatusReport & {
    failed: Array<SyncStatusReport['failed'][number] & { label: string | null }>;
  };
}

export declare namespace StartResync {
  export interface Request {
    body: { dryRun?: boolean } | undefined;
  }
  export type Response = { job: ResyncProgress } | { plan: DryRunPlan };
}
