import { RemoteError, answerOf, bodyForDisplay, classifyStatus, statusLine } from './errors';
import { num } from './readers';
import type { Redactor } from './redact';
import type { Transport } from './transport';

export const TOKEN_PATH = '/v3.0/oauth2/token';

/** Used when the answer omits `expires_in`: short enough to stay safe, a 401 renews anyway. */
const DEFAULT_LIFETIME_S = 3600;
const MAX_RENEW_MARGIN_MS = 60_000;

export type TokenSource = ReturnType<typeof createTokenSource>;

export function createTokenSource(options: {
  transport: Transport;
  baseUrl: URL;
  clientId: string;
  /** base64 of `clientId:clientSecret`, redacted for good by the client (not rotated out as tokens are) */
  basic: string;
  redactor: Redactor;
}) {
  const { transport, baseUrl, clientId, basic, redactor } = options;
  const url = new URL(`${baseUrl.href.replace(/\/+$/, '')}${TOKEN_PATH}`);
  const host = baseUrl.host;

  let cached: { token: string; renewAt: number } | undefined;
  let pending: Promise<string> | undefined;

  const requestToken = async (): Promise<string> => {
    const sentAt = Date.now();
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
      const { line, detail, ...answer } = answerOf(response, redactor.value);
      const refused = [400, 401, 403].includes(response.status);
      throw new RemoteError({
        message: redactor.text(
          refused
            ? `The client id or secret was refused by ${host} (${line}${detail})`
            : `Token request to ${host} failed: ${line} on POST ${TOKEN_PATH}${detail}`
        ),
        // Credentials refused stay refused (`auth` is not retryable) until an admin changes them.
        code: refused ? 'auth' : classifyStatus(response.status),
        ...answer,
        method: 'POST',
        path: TOKEN_PATH,
      });
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
        body: redactor.value(bodyForDisplay(response.text)),
        method: 'POST',
        path: TOKEN_PATH,
      });
    }
    redactor.addSecret(token);
    const lifetime = num(record.expires_in) ?? 0;
    const lifetimeMs = (lifetime > 0 ? lifetime : DEFAULT_LIFETIME_S) * 1000;
    // Counted from when the request left, so a slow answer cannot make the token look fresher than it is.
    const margin = Math.min(MAX_RENEW_MARGIN_MS, lifetimeMs * 0.1);
    cached = { token, renewAt: sentAt + lifetimeMs - margin };
    return token;
  };

  /** A valid token, from cache or from one shared token request. */
  const current = (): Promise<string> => {
    if (cached && Date.now() < cached.renewAt) return Promise.resolve(cached.token);
    return (pending ??= requestToken().finally(() => {
      pending = undefined;
    }));
  };

  return {
    get: current,
    // After a 401: the holders of the same rejected token share one renewal; one whose token was
    // already replaced gets the replacement without a request.
    renewAfterRejection(rejected: string) {
      if (cached?.token === rejected) cached = undefined;
      return current();
    },
  };
}
