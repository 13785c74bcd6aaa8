import {
  RemoteError,
  bodyForDisplay,
  classifyStatus,
  describeBody,
  parseRetryAfter,
  statusLine,
} from './errors';
import type { Redactor } from './redact';
import type { Logger, Transport } from './transport';

export const TOKEN_PATH = '/v3.0/oauth2/token';

/** Used when the answer omits `expires_in`: short enough to stay safe, a 401 renews anyway. */
const DEFAULT_LIFETIME_S = 3600;
const MAX_RENEW_MARGIN_MS = 60_000;

export interface TokenSourceOptions {
  transport: Transport;
  baseUrl: URL;
  clientId: string;
  clientSecret: string;
  redactor: Redactor;
  logger?: Logger;
  now: () => number;
}

export interface TokenSource {
  /** A valid token, from cache or from one shared token request. */
  get(): Promise<string>;
  /**
   * A new token after `rejected` got a 401. Concurrent callers holding the same
   * rejected token share one renewal; a caller whose token was already replaced
   * gets the replacement without a request.
   */
  renewAfterRejection(rejected: string): Promise<string>;
  clear(): void;
}

interface Cached {
  token: string;
  renewAt: number;
}

function lifetimeSeconds(value: unknown): number {
  const n = typeof value === 'string' ? Number(value) : value;
  return typeof n === 'number' && Number.isFinite(n) && n > 0 ? n : DEFAULT_LIFETIME_S;
}

export function createTokenSource(options: TokenSourceOptions): TokenSource {
  const { transport, baseUrl, clientId, clientSecret, redactor, logger, now } = options;
  const basic = Buffer.from(`${clientId}:${clientSecret}`, 'utf8').toString('base64');
  redactor.addSecret(basic);
  const url = new URL(`${baseUrl.href.replace(/\/+$/, '')}${TOKEN_PATH}`);
  const host = baseUrl.host;

  let cached: Cached | undefined;
  let pending: Promise<string> | undefined;

  const failure = (
    status: number,
    statusText: string | undefined,
    text: string,
    retryAfter: string | null
  ) => {
    const body = redactor.value(bodyForDisplay(text));
    const detail = describeBody(body);
    const line = statusLine(status, statusText);
    const refused = status === 400 || status === 401 || status === 403;
    const message = refused
      ? `The client id or secret was refused by ${host} (${line}${detail ? `: ${detail}` : ''})`
      : `Token request to ${host} failed: ${line} on POST ${TOKEN_PATH}${detail ? `: ${detail}` : ''}`;
    return new RemoteError({
      message: redactor.text(message),
      code: refused ? 'auth' : classifyStatus(status),
      status,
      // Credentials refused stay refused until an admin changes them.
      retryable: refused ? false : undefined,
      retryAfterMs: parseRetryAfter(retryAfter),
      body,
      method: 'POST',
      path: TOKEN_PATH,
    });
  };

  const requestToken = async (): Promise<string> => {
    const sentAt = now();
    const response = await transport.send({
      method: 'POST',
      url,
      path: TOKEN_PATH,
      headers: {
        Authorization: `Basic ${basic}`,
        'Content-Type': 'application/x-www-form-urlencoded',
        Accept: 'application/json',
      },
      body: new URLSearchParams({
        client_id: clientId,
        grant_type: 'client_credentials',
      }).toString(),
    });
    if (response.status < 200 || response.status >= 300) {
      throw failure(
        response.status,
        response.statusText,
        response.text,
        response.headers.get('retry-after')
      );
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(response.text);
    } catch {
      parsed = undefined;
    }
    const record = (parsed && typeof parsed === 'object' ? parsed : {}) as Record<string, unknown>;
    const token = record.access_token;
    if (typeof token !== 'string' || token === '') {
      throw new RemoteError({
        message: `Token response from ${host} carries no access_token (${statusLine(response.status, response.statusText)})`,
        code: 'server',
        status: response.status,
        retryable: true,
        body: redactor.value(bodyForDisplay(response.text)),
        method: 'POST',
        path: TOKEN_PATH,
      });
    }
    redactor.addSecret(token);
    const lifetimeMs = lifetimeSeconds(record.expires_in) * 1000;
    // Counted from when the request left, so a slow answer cannot make the token look fresher than it is.
    const margin = Math.min(MAX_RENEW_MARGIN_MS, lifetimeMs * 0.1);
    cached = { token, renewAt: sentAt + lifetimeMs - margin };
    logger?.debug(
      `location-content remote: new access token from ${host}, valid ${Math.round(lifetimeMs / 1000)} s`
    );
    return token;
  };

  const shared = (): Promise<string> => {
    if (!pending) {
      pending = requestToken().finally(() => {
        pending = undefined;
      });
    }
    return pending;
  };

  const fresh = (): string | undefined =>
    cached && now() < cached.renewAt ? cached.token : undefined;

  return {
    get() {
      const token = fresh();
      return token !== undefined ? Promise.resolve(token) : shared();
    },
    renewAfterRejection(rejected) {
      if (cached?.token === rejected) cached = undefined;
      const token = fresh();
      return token !== undefined ? Promise.resolve(token) : shared();
    },
    clear() {
      cached = undefined;
    },
  };
}
