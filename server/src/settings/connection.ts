import type { RemoteClient } from '../remote';
import { causes, RemoteError, type RemoteErrorCode } from '../remote/errors';
import type { ConnectionTestResult } from '../../../shared/contracts/settings';
import { CREDENTIAL_FIELDS, type Credentials } from './credentials';
import { pushTarget } from '../config/environment';

const SAMPLE = 5;

/** The system error code under a network failure (ECONNREFUSED, ENOTFOUND, CERT_HAS_EXPIRED, ...). */
const systemCode = (err: unknown): string | undefined => {
  for (const e of causes(err)) {
    if (typeof e.code === 'string' && /^[A-Z][A-Z0-9_]+$/.test(e.code)) return e.code;
    if (typeof e.errno === 'string') return e.errno;
  }
  const m = /\b(E[A-Z]{3,}|[A-Z_]*CERT[A-Z_]*|SELF_SIGNED[A-Z_]*|UNABLE_TO_[A-Z_]+)\b/.exec(
    String((err as { message?: unknown } | null | undefined)?.message ?? '')
  );
  return m?.[1];
};

const REFUSED = 'the connection was refused (is the server running, and is the port right?)';
const UNRESOLVED = 'the host name does not resolve (check the spelling of the base URL)';
const CLOSED = 'the connection was closed by the other side';
const UNREACHABLE = 'the network cannot reach that host';
const NETWORK_REASONS: Record<string, string> = {
  ECONNREFUSED: REFUSED,
  ENOTFOUND: UNRESOLVED,
  EAI_AGAIN: UNRESOLVED,
  ECONNRESET: CLOSED,
  EPIPE: CLOSED,
  EHOSTUNREACH: UNREACHABLE,
  ENETUNREACH: UNREACHABLE,
  ETIMEDOUT: 'the connection timed out',
};

const networkReason = (code: string | undefined) => {
  if (!code) return 'the connection failed';
  if (NETWORK_REASONS[code]) return NETWORK_REASONS[code];
  if (/CERT|SELF_SIGNED|UNABLE_TO_VERIFY/.test(code))
    return `its TLS certificate is not trusted (${code})`;
  return `network error ${code}`;
};

/** What the test says of each RemoteError code, `at` being the host; other codes: refused. */
const SENTENCES: Partial<
  Record<RemoteErrorCode, (at: string, err: RemoteError, timeoutMs: number) => string>
> = {
  auth: (at) => `Wrong client id or client secret: ${at} refused them.`,
  forbidden: (at) =>
    `The credentials are valid, but ${at} does not allow them to list pinpoints (403 Forbidden).`,
  network: (at, err) => `Cannot reach ${at}: ${networkReason(systemCode(err))}.`,
  timeout: (at, _, timeoutMs) =>
    `${at} did not answer within ${Math.round(timeoutMs / 1000)} s (timeout).`,
  not_found: (at, err) =>
    `${at} answered ${err.status ?? 404} Not Found on ${err.path}: check that the base URL is the API root, such as https://api.getwemap.com.`,
  rate_limited: (at, err) =>
    `${at} is limiting the requests of these credentials (429 Too Many Requests).${err.retryAfterMs ? ` Try again in ${Math.ceil(err.retryAfterMs / 1000)} s.` : ' Try again in a moment.'}`,
  server: (at, err) =>
    `${at} had an internal error${err.status ? ` (${err.status})` : ''}. Try again later.`,
};

/** Turns any failure of the test into one sentence, keeping the remote's own words as detail. */
function describeFailure(
  thrown: unknown,
  host: string | null,
  timeoutMs: number
): Omit<ConnectionTestResult, 'durationMs' | 'host'> {
  const at = host ?? 'the server';
  // The client wraps every failure of a call in a RemoteError: anything else is its refusal of the
  // options (client.ts), such as a base URL from config/plugins that carries credentials.
  if (!(thrown instanceof RemoteError))
    return { ok: false, code: 'invalid', message: (thrown as Error).message };
  const { code, status } = thrown;
  const sentence =
    SENTENCES[code]?.(at, thrown, timeoutMs) ??
    `${at} refused the request${status ? ` (${status})` : ''}.`;
  return { ok: false, code, status, detail: thrown.message, message: sentence };
}

/**
 * Asks for a token, then reads the first page of pinpoints: proves the URL, the credentials and the
 * permission to read, without changing anything remote.
 */
export async function testConnection(
  credentials: Partial<Credentials>,
  makeClient: (c: Credentials) => RemoteClient,
  options: { timeoutMs: number }
): Promise<ConnectionTestResult> {
  const started = Date.now();
  const { host } = pushTarget(credentials);
  const missing = CREDENTIAL_FIELDS.filter((f) => !credentials[f]);
  if (missing.length) {
    const names = { baseUrl: 'base URL', clientId: 'client id', clientSecret: 'client secret' };
    return {
      ok: false,
      host,
      code: 'incomplete',
      message: `Enter the ${missing.map((f) => names[f]).join(', ')} first.`,
      durationMs: 0,
    };
  }
  const secret = credentials.clientSecret!;
  const redact = (text: string | undefined) => text?.split(secret).join('***');
  let timer: NodeJS.Timeout | undefined;
  try {
    const c = makeClient(credentials as Credentials);
    const probe = (async () => {
      await c.authenticate();
      const page = await c.pinpoints.page();
      return {
        pinpoints: page.count ?? page.results.length,
        // A pinpoint the remote gives without a name is shown by its id.
        sample: page.results
          .slice(0, SAMPLE)
          .map((p) => ({ id: p.id, name: p.name ?? `#${p.id}` })),
      };
    })();
    // The whole test (token + first page) is bounded, whatever the client's own per-request timeout.
    const late = new RemoteError({
      message: `no answer within ${options.timeoutMs} ms`,
      code: 'timeout',
      method: 'GET',
      path: '',
    });
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(late), options.timeoutMs);
    });
    probe.catch(() => undefined);
    const { pinpoints, sample } = await Promise.race([probe, deadline]);
    return {
      ok: true,
      host,
      message: `Connected to ${host}: ${pinpoints} pinpoint${pinpoints === 1 ? '' : 's'} visible.`,
      pinpoints,
      sample,
      durationMs: Date.now() - started,
    };
  } catch (err) {
    const failure = describeFailure(err, host, options.timeoutMs);
    return {
      ...failure,
      message: redact(failure.message)!,
      detail: redact(failure.detail),
      host,
      durationMs: Date.now() - started,
    };
  } finally {
    clearTimeout(timer);
  }
}
