/** What the admin reads of the Location Content API: its resources and the client's error codes. */
export const RESOURCES = ['pinpoint', 'event', 'category', 'list'] as const;
export type ResourceKind = (typeof RESOURCES)[number];

export type RemoteErrorCode =
  | 'network'
  | 'timeout'
  | 'rate_limited'
  | 'server'
  | 'auth'
  | 'forbidden'
  | 'not_found'
  | 'validation'
  | 'client';
