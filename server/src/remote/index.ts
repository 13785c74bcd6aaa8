export { createRemoteClient, DEFAULT_TIMEOUT_MS, DEFAULT_USER_AGENT } from './client';
export type {
  RemoteClient,
  RemoteClientOptions,
  PinpointsApi,
  PinpointFilter,
  EventsApi,
  EventFilter,
  CategoriesApi,
} from './client';
export { RemoteError, isRemoteError, classifyStatus, parseRetryAfter } from './errors';
export type { RemoteErrorCode } from './errors';
export { toMsUtc, InvalidDateError } from './dates';
export {
  pinpointPayload,
  eventPayload,
  categoryPayload,
  listPayload,
  membershipPayload,
} from './payloads';
export type { ListsApi } from './lists';
export type {
  FetchLike,
  FetchInitLike,
  FetchResponseLike,
  Logger,
  RequestInfo,
  ResponseInfo,
} from './transport';
export * from './types';
