/**
 * The Location Content API client: the token cache (token.ts), one HTTP client (transport.ts)
 * behind the rate-limited p-queue (limiter.ts), errors and their retry classification (errors.ts),
 * a call tried again on a transient failure (retry.ts), one API per collection whose pages follow
 * `next` only (resource.ts). No Strapi import here.
 */
export { createRemoteClient } from './client';
export type { RemoteClient, RemoteClientOptions } from './client';
export { RemoteError, classifyStatus, parseRetryAfter } from './errors';
export { toMsUtc, InvalidDateError } from './dates';
export type { FetchLike, FetchInitLike, FetchResponseLike } from './transport';
export * from './types';
