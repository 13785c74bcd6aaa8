/** `GET /location-content/entries/:contentType/:documentId/history`: the last pushes of one entry, newest first. */
export interface PushAttempt {
  at: string;
  /** what was attempted: create, update, delete, or push when the answer says nothing more (waiting, unchanged) */
  operation: 'create' | 'update' | 'delete' | 'push';
  outcome: 'synced' | 'removed' | 'unchanged' | 'waiting' | 'failed';
  /** the remote's HTTP status when it answered with an error; null for a mapping problem or no answer */
  httpStatus: number | null;
  /** a mapping problem, the remote's words, or what the entry waits for */
  message: string | null;
  durationMs: number;
}

export declare namespace GetEntryHistory {
  export interface Request {
    params: { contentType: string; documentId: string };
    query: { locale?: string };
  }
  export interface Response {
    attempts: PushAttempt[];
  }
}
