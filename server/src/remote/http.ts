import { RemoteError, answerOf, bodyForDisplay, classifyStatus, statusLine } from './errors';
import type { Redactor } from './redact';
import type { TokenSource } from './token';
import type { Logger, RawResponse, Transport } from './transport';

export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

export interface ApiRequest {
  method: Method;
  /** a contract path (`/v3.0/...`) or a link the remote returned, as resolveLink checked it */
  target: string | URL;
  /** only for contract paths: the documented filters */
  query?: Record<string, string | number | undefined>;
  body?: unknown;
}

export type Api = ReturnType<typeof createApi>;
type ApiResponse = Awaited<ReturnType<Api['request']>>;

// Query keys whose values must not reach errors, logs or metrics.
const SECRET_QUERY = /token|secret|password|key|auth|sig/i;

function displayPath(url: URL): string {
  const params = new URLSearchParams(url.search);
  for (const key of [...params.keys()]) {
    if (SECRET_QUERY.test(key)) params.set(key, 'redacted');
  }
  const query = params.toString();
  return `${url.pathname}${query ? `?${query}` : ''}`;
}

export function createApi(options: {
  transport: Transport;
  tokens: TokenSource;
  baseUrl: URL;
  redactor: Redactor;
  logger?: Logger;
}) {
  const { transport, tokens, baseUrl, redactor, logger } = options;
  const root = baseUrl.href.replace(/\/+$/, '');

  /** Turns a `next`/`previous` link into a URL safe to send the token to. */
  const resolveLink = (link: string): URL => {
    const refused = (message: string, path: string) =>
      new RemoteError({ message, code: 'server', retryable: false, method: 'GET', path });
    const url = URL.parse(link, `${root}/`);
    if (!url)
      throw refused(
        `The remote returned an unusable page link: ${redactor.text(link).slice(0, 200)}`,
        link.slice(0, 200)
      );
    // The token is only ever sent to the configured host.
    if (url.host !== baseUrl.host)
      throw refused(
        `The remote returned a page link to another host (${url.host}); not followed`,
        displayPath(url)
      );
    // Behind a TLS-terminating proxy the service may advertise http:// links; the
    // token must not travel in clear, so the configured scheme wins.
    if (url.protocol !== baseUrl.protocol) url.protocol = baseUrl.protocol;
    return url;
  };

  const toUrl = (target: string | URL, query: ApiRequest['query']): URL => {
    if (target instanceof URL) return target;
    const url = new URL(`${root}${target}`);
    for (const [key, value] of Object.entries(query ?? {})) {
      if (value !== undefined) url.searchParams.set(key, String(value));
    }
    return url;
  };

  const failure = (method: Method, path: string, response: RawResponse): RemoteError => {
    const { status } = response;
    if (status >= 300 && status < 400) {
      const location = response.headers.get('location');
      const to = location ? URL.parse(location, `${root}/`) : null;
      const where = to ? ` to ${to.host}` : '';
      return new RemoteError({
        message: `Unexpected redirect (${statusLine(status, response.statusText)}) on ${method} ${path}${where}: check the base URL`,
        code: 'client',
        status,
        method,
        path,
      });
    }
    const { line, detail, ...answer } = answerOf(response, redactor.value);
    return new RemoteError({
      message: redactor.text(`${line} on ${method} ${path}${detail}`),
      code: classifyStatus(status),
      ...answer,
      method,
      path,
    });
  };

  const send = (method: Method, url: URL, path: string, token: string, body: string | undefined) =>
    transport.send({
      method,
      url,
      path,
      headers: {
        Accept: 'application/json',
        Authorization: `Bearer ${token}`,
        ...(body !== undefined ? { 'Content-Type': 'application/json' } : {}),
      },
      body,
    });

  return {
    resolveLink,
    async request({ method, target, query, body }: ApiRequest) {
      const url = toUrl(target, query);
      const path = displayPath(url);
      const payload = body === undefined ? undefined : JSON.stringify(body);
      let token = await tokens.get();
      let response = await send(method, url, path, token, payload);
      if (response.status === 401) {
        // No refresh token exists: the token is replaced and the call repeated, once. A 401 means
        // the call was not carried out, so repeating a POST cannot duplicate anything.
        logger?.info(
          `location-content remote: token refused on ${method} ${path}; requesting a new one`
        );
        token = await tokens.renewAfterRejection(token);
        response = await send(method, url, path, token, payload);
      }
      if (response.status < 200 || response.status >= 300) throw failure(method, path, response);
      try {
        // undefined for an empty body
        const data: unknown = response.text.trim() === '' ? undefined : JSON.parse(response.text);
        return { status: response.status, data, method, path };
      } catch (err) {
        const { line, detail, body } = answerOf(response, redactor.value);
        throw new RemoteError({
          message: `Unreadable answer (${line}, not JSON) on ${method} ${path}${detail}`,
          // Retryable like a lost answer: a write may have taken effect, and is repeated as after a
          // timeout (a create looks for the object it may have made first: sync/push/create.ts).
          code: 'server',
          status: response.status,
          body,
          method,
          path,
          cause: err,
        });
      }
    },
  };
}

/**
 * A 2xx answer the client cannot read is a `server` error with the body kept: retryable for a
 * write, like a lost answer (above); for a read, a contract breach that asking again would not mend.
 */
export function readWith<T>(response: ApiResponse, read: (raw: unknown) => T): T {
  try {
    return read(response.data);
  } catch (err) {
    const reason = err instanceof Error ? err.message : String(err);
    throw new RemoteError({
      message: `Unexpected answer (${response.status}) on ${response.method} ${response.path}: ${reason}`,
      code: 'server',
      status: response.status,
      retryable: response.method !== 'GET',
      body: bodyForDisplay(JSON.stringify(response.data ?? null)),
      method: response.method,
      path: response.path,
      cause: err,
    });
  }
}
