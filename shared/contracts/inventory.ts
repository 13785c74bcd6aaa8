/**
 * Admin routes of the remote inventory and of linking existing content (onboarding).
 * Imported by the server and the admin with relative paths.
 */

export type ResourceKind = 'pinpoint' | 'event' | 'category' | 'list';

export interface InventoryProgress {
  /** 'running' while a walk goes on; 'failed' when the last one stopped (it resumes from its last page) */
  state: 'idle' | 'running' | 'done' | 'failed';
  startedAt: string | null;
  /** what the walk reads now */
  phase: ResourceKind | 'members' | null;
  phases: Array<{
    resource: ResourceKind;
    pages: number;
    objects: number;
    done: boolean;
    startedAt: string | null;
  }>;
  error: string | null;
  /** end of the last complete walk */
  lastCompleteAt: string | null;
  /** what the inventory table holds */
  held: Record<ResourceKind, number> & { members: number };
  /** objects held that no entry owns: a resync would not link them, it creates new ones */
  unowned: number;
}

/** GET /inventory */
export namespace GetInventory {
  export interface Response {
    inventory: InventoryProgress;
  }
}

/** POST /inventory: starts a walk (or resumes the interrupted one) in the background. */
export namespace RunInventory {
  export interface Response {
    inventory: InventoryProgress;
  }
}

export interface EntryRef {
  contentType: string;
  documentId: string;
  locale: string;
}

export interface LinkCandidate {
  remoteId: number;
  name: string | null;
  latitude: number | null;
  longitude: number | null;
  firstStart: string | null;
}

export type LinkEntry = EntryRef & {
  resource: ResourceKind;
  name: string;
  label?: string;
};

export interface LinkProposal {
  /** end of the inventory walk the proposal was made from */
  inventoryCompleteAt: string;
  /** one candidate: linked on confirmation */
  linked: Array<LinkEntry & { remoteId: number }>;
  /** several candidates: the editor picks one, or skips (the entry is then created) */
  ambiguous: Array<LinkEntry & { candidates: LinkCandidate[] }>;
  /** no candidate: the next push creates it */
  unmatched: LinkEntry[];
  /** remote objects no entry owns and no entry matches */
  unowned: Array<{
    resource: ResourceKind;
    remoteId: number;
    name: string | null;
  }>;
  counts: {
    linked: number;
    ambiguous: number;
    unmatched: number;
    unowned: number;
  };
  /** each list is cut at this many items; counts are whole */
  truncatedAt: number;
  /** links recorded (0 for a proposal) */
  applied: number;
}

/** GET /link: the proposal, nothing changed. */
export namespace GetLinkProposal {
  export interface Response {
    proposal: LinkProposal;
  }
}

/** POST /link: records the links of the current proposal and queues the linked entries. */
export namespace ConfirmLinks {
  export interface Request {
    /** `contentType|documentId|locale` of an ambiguous entry -> the remote id picked, or null to skip it */
    choices?: Record<string, number | null>;
  }
  export interface Response {
    proposal: LinkProposal;
  }
}
