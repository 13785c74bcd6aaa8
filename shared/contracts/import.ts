/**
 * Import (remote -> Strapi): the dry run's plan and the background job's progress, read by the
 * public sync service (`sync.import`), the admin routes and the dashboard.
 */
import type { ResourceKind } from './remote';

/** The content type chosen per resource, when several active mappings take it. */
export type ImportInto = Partial<Record<ResourceKind, string>>;

export interface ImportOptions {
  /** true: only the plan, nothing written (the default of the admin's first step) */
  dryRun?: boolean;
  /** locale of the entries of localized types (default: the default locale) */
  locale?: string | null;
  /** true: entries are published at once (default: drafts) */
  publish?: boolean;
  /** dry run: sample entries shown per resource (3) */
  samples?: number;
  /**
   * the content type that receives a resource's objects, when several active mappings take it
   * (default: the first of them in the config); one without an active mapping of it is refused
   */
  into?: ImportInto | null;
}

/** A mapped field the import cannot fill, and why (the same for every object). */
export interface NotImportableField {
  field: string;
  path: string | null;
  reason: string;
}

/** One remote object as the import would write it. */
export interface ImportSample {
  remoteId: number;
  name: string | null;
  /** the entry's data: relations and media as words ("the entry of category 12", "download …") */
  data: Record<string, unknown>;
  /** why this object would not be imported */
  problems: string[];
  /** what of this object would be left out */
  warnings: string[];
}

export interface ImportPlanGroup {
  resource: ResourceKind;
  /** the content type that receives the objects; null when no mapping takes this resource */
  contentType: string | null;
  /** every content type an active mapping of this resource names (choose with `into`) */
  candidates: string[];
  /** objects no entry owns */
  count: number;
  /** of those, objects that would fail for a problem of their own (no name, coordinates out of range, …) */
  wouldFail: number;
  /** set when none of them can be imported (no mapping, a transform without inverse) */
  blocked: string | null;
  notImportable: NotImportableField[];
  samples: ImportSample[];
}

export interface ImportPlan {
  /** end of the inventory walk the plan was made from */
  inventoryCompleteAt: string;
  locale: string | null;
  publish: boolean;
  /** the content type each resource goes into (null: no active mapping takes it) */
  into: Record<ResourceKind, string | null>;
  /** in import order: categories, pinpoints, events, lists */
  groups: ImportPlanGroup[];
  total: number;
}

export interface ImportCounts {
  total: number;
  done: number;
  failed: number;
  skipped: number;
}

/** An object that was not imported (failed) or imported without part of it (imported: true). */
export interface ImportIssue {
  resource: ResourceKind;
  remoteId: number;
  name: string | null;
  contentType: string | null;
  documentId: string | null;
  imported: boolean;
  reason: string;
}

export interface ImportProgress {
  id: string;
  state: 'running' | 'done' | 'failed' | 'cancelled';
  startedAt: string;
  finishedAt: string | null;
  locale: string | null;
  publish: boolean;
  /** the content types chosen with `into` (the others: the first active mapping of the resource) */
  into: ImportInto;
  /** what the job does now: the walk, the events' pinpoints, or a resource's objects */
  phase: 'walk' | 'links' | ResourceKind | null;
  counts: ImportCounts;
  byResource: Record<ResourceKind, ImportCounts>;
  /** the first 100 failed or partly imported objects */
  issues: ImportIssue[];
  /** failed or partly imported objects in all */
  issueCount: number;
  error: string | null;
}

/** POST /import/dry-run */
export declare namespace DryRunImport {
  export interface Request {
    body: { locale?: string | null; publish?: boolean; into?: ImportInto | null };
  }
  export interface Response {
    plan: ImportPlan;
  }
}

/** POST /import: starts the job (or joins the one running). */
export declare namespace StartImport {
  export interface Request {
    body: { locale?: string | null; publish?: boolean; into?: ImportInto | null };
  }
  export interface Response {
    job: ImportProgress;
  }
}

/** GET /import: the job running or the last one, null before the first. */
export declare namespace GetImport {
  export interface Response {
    job: ImportProgress | null;
  }
}
