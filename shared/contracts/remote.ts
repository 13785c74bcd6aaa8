/** What the admin reads of the Location Content API: its resources and the client's error codes. */
/** Dependencies first: a category before the pinpoints using it, a pinpoint before its events and lists. */
export const RESOURCES = ['category', 'pinpoint', 'event', 'list'] as const;
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
