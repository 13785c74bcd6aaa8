export { createRemoteClient, DEFAULT_TIMEOUT_MS } from './client';
export type { RemoteClient, RemoteClientOptions } from './client';
export { RemoteError, classifyStatus, parseRetryAfter } from './errors';
export type { RemoteErrorCode } from './errors';
export { toMsUtc, InvalidDateError } from './dates';
export {
  pinpointPayload,
  eventPayload,
  categoryPayload,
  listPayload,
  membershipPayload,
} from './payloads';
export type { FetchLike, FetchInitLike, FetchResponseLike } from './transport';
export * from './types';
