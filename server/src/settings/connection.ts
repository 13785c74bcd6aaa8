import type { RemoteClient } from '../remote';
import { causes, type RemoteError, type RemoteErrorCode } from '../remote/errors';
import type { ConnectionFailure, ConnectionTestResult } from '../../../shared/contracts/settings';
import type { Credentials } from './credentials';

export type { ConnectionFailure, ConnectionTestResult };

const SAMPLE = 5;

const hostOf = (baseUrl?: string) => {
  try {
    return baseUrl ? new URL(baseUrl).host : null;
  } catch {
    return null;
  }
};

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

const networkReason = (code: string | undefined) => {
  if (!code) return 'the connection failed';
  if (code === 'ECONNREFUSED')
    return 'the connection was refused (is the server running, and is the port right?)';
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN')
    return 'the host name does not resolve (check the spelling of the base URL)';
  if (code === 'ECONNRESET' || code === 'EPIPE')
    return 'the connection was closed by the other side';
  if (code === 'EHOSTUNREACH' || code === 'ENETUNREACH')
    return 'the network cannot reach that host';
  if (code === 'ETIMEDOUT') return 'the connection timed out';
  if (/CERT|SELF_SIGNED|UNABLE_TO_VERIFY/.test(code))
    return `its TLS certificate is not trusted (${code})`;
  return `network error ${code}`;
};

/** Turns any failure of the test into one sentence, keeping the remote's own words as detail. */
export function describeFailure(
  thrown: unknown,
  host: string | null,
  timeoutMs: number
): Omit<ConnectionTestResult, 'durationMs' | 'host'> {
  const at = host ?? 'the server';
  const named = thrown as { name?: unknown; message?: unknown } | null | undefined;
  if (named?.name !== 'RemoteError') {
    if (thrown instanceof TypeError && /base URL|required/i.test(thrown.message))
      return { ok: false, code: 'invalid', message: thrown.message };
    return {
      ok: false,
      code: 'unexpected',
      message: `${at} answered, but not like a Location Content API v3.0 (is the base URL the API root?).`,
      detail: String(named?.message ?? thrown),
    };
  }
  // Recognised by its name, as before (not instanceof): a RemoteError.
  const err = thrown as RemoteError;
  const code = err.code as RemoteErrorCode;
  const status: number | undefined = err.status;
  const detail: string = err.message;
  const base = { ok: false, code, status, detail };
  switch (code) {
    case 'auth':
      return { ...base, message: `Wrong client id or client secret: ${at} refused them.` };
    case 'forbidden':
      return {
        ...base,
        message: `The credentials are valid, but ${at} does not allow them to list pinpoints (403 Forbidden).`,
      };
    case 'network':
      return { ...base, message: `Cannot reach ${at}: ${networkReason(systemCode(err))}.` };
    case 'timeout':
      return {
        ...base,
        message: `${at} did not answer within ${Math.round(timeoutMs / 1000)} s (timeout).`,
      };
    case 'not_found':
      return {
        ...base,
        message: `${at} answered ${status ?? 404} Not Found on ${err.path}: check that the base URL is the API root, such as https://api.getwemap.com.`,
      };
    case 'rate_limited': {
      const wait = err.retryAfterMs
        ? ` Try again in ${Math.ceil(err.retryAfterMs / 1000)} s.`
        : ' Try again in a moment.';
      return {
        ...base,
        message: `${at} is limiting the requests of these credentials (429 Too Many Requests).${wait}`,
      };
    }
    case 'server':
      return {
        ...base,
        message: `${at} had an internal error${status ? ` (${status})` : ''}. Try again later.`,
      };
    default:
      return { ...base, message: `${at} refused the request${status ? ` (${status})` : ''}.` };
  }
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
  const host = hostOf(credentials.baseUrl);
  const missing = (['baseUrl', 'clientId', 'clientSecret'] as const).filter((f) => !credentials[f]);
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
  const redact = (text: string | undefined) =>
    text === undefined ? undefined : text.split(secret).join('***');
  let timer: NodeJS.Timeout | undefined;
  try {
    const c = makeClient(credentials as Credentials);
    const probe = (async () => {
      await c.authenticate();
      for await (const page of c.pinpoints.listPages()) {
        return {
          pinpoints: page.count ?? page.results.length,
          // A pinpoint the remote gives without a name is shown by its id.
          sample: page.results
            .slice(0, SAMPLE)
            .map((p) => ({ id: p.id, name: p.name ?? `#${p.id}` })),
        };
      }
      return { pinpoints: 0, sample: [] };
    })();
    // The whole test (token + first page) is bounded, whatever the client's own per-request timeout.
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () =>
          reject(
            Object.assign(new Error(`no answer within ${options.timeoutMs} ms`), {
              name: 'RemoteError',
              code: 'timeout',
              path: '',
            })
          ),
        options.timeoutMs
      );
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
