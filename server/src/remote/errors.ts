import { STATUS_CODES } from 'node:http';
import type { RemoteErrorCode } from '../../../shared/contracts/remote';

import type { RawResponse } from './transport';

export type { RemoteErrorCode };

// A status's code says it all: classifyStatus gives 408, 429 and 5xx these codes.
const RETRYABLE: RemoteErrorCode[] = ['network', 'timeout', 'rate_limited', 'server'];

type RemoteErrorInit = Pick<RemoteError, 'message' | 'code' | 'method' | 'path'> &
  Partial<Pick<RemoteError, 'status' | 'retryable' | 'retryAfterMs' | 'body' | 'cause'>>;

/**
 * The one error type of the remote client. Callers decide retry vs. stop from `retryable` alone;
 * `code` and `status` say what to show an editor. `body` is the answer's parsed JSON or text,
 * truncated and redacted, for display only; `path` is the call's path (and non-secret query),
 * never the host or credentials.
 */
export class RemoteError extends Error {
  override name = 'RemoteError';
  // Fields, each an own property even when undefined; the constructor sets them.
  readonly code!: RemoteErrorCode;
  readonly status?: number;
  readonly retryable!: boolean;
  readonly retryAfterMs?: number;
  readonly body?: unknown;
  readonly method!: string;
  readonly path!: string;

  constructor({ message, cause, ...init }: RemoteErrorInit) {
    super(message, cause === undefined ? undefined : { cause });
    Object.assign(this, init, { retryable: init.retryable ?? RETRYABLE.includes(init.code) });
  }

  toJSON(): Record<string, unknown> {
    const { name, message, code, status, retryable, retryAfterMs, method, path, body } = this;
    return { name, message, code, status, retryable, retryAfterMs, method, path, body };
  }
}

type Cause = { code?: unknown; errno?: unknown; message?: unknown; cause?: unknown };

/** An error, then the errors of its `cause` chain; five deep, since a chain may loop. */
export function* causes(err: unknown): Generator<Cause> {
  for (let e = err, depth = 0; e && typeof e === 'object' && depth < 5; depth++) {
    yield e as Cause;
    e = (e as Cause).cause;
  }
}

export function classifyStatus(status: number): RemoteErrorCode {
  if (status === 408) return 'timeout';
  if (status === 429) return 'rate_limited';
  if (status >= 500) return 'server';
  if (status === 400 || status === 422) return 'validation';
  if (status === 401) return 'auth';
  if (status === 403) return 'forbidden';
  if (status === 404 || status === 410) return 'not_found';
  return 'client';
}

/** `Retry-After` is either delta-seconds or an HTTP-date (RFC 9110 §10.2.3). */
export function parseRetryAfter(value: string | null | undefined): number | undefined {
  const trimmed = value?.trim();
  if (!trimmed) return undefined;
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000);
  // A bare number with a sign or garbage is not a date: Date.parse would accept '-1' as a year.
  if (/^[+-]?\d/.test(trimmed)) return undefined;
  const at = Date.parse(trimmed);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - Date.now());
}

export const MAX_BODY_CHARS = 4096;

/** Parsed JSON when the text is JSON, else the text; either way small enough to store and show. */
export function bodyForDisplay(text: string): unknown {
  if (text === '') return undefined;
  if (text.length <= MAX_BODY_CHARS) {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      return text;
    }
  }
  return `${text.slice(0, MAX_BODY_CHARS)}… [${text.length - MAX_BODY_CHARS} more characters]`;
}

const MAX_DETAIL_CHARS = 500;

function clip(text: string, max = MAX_DETAIL_CHARS): string {
  const oneLine = text.replace(/\s+/g, ' ').trim();
  return oneLine.length > max ? `${oneLine.slice(0, max)}…` : oneLine;
}

function messagesOf(value: unknown): string[] {
  if (['string', 'number', 'boolean'].includes(typeof value)) return [String(value)];
  if (Array.isArray(value) && value.every((v) => typeof v === 'string')) return value as string[];
  return [];
}

/** Flattens DRF errors: `{field: [msgs]}`, nested `{dates: [{start: [msgs]}]}`, `non_field_errors`. */
function fieldErrors(value: unknown, prefix = ''): string[] {
  const direct = messagesOf(value);
  if (direct.length > 0) return [prefix ? `${prefix}: ${direct.join(' ')}` : direct.join(' ')];
  if (Array.isArray(value))
    return value.flatMap((item, index) => fieldErrors(item, `${prefix}[${index}]`));
  if (!value || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([key, val]) =>
    fieldErrors(
      val,
      key === 'non_field_errors' || key === 'detail' ? prefix : prefix ? `${prefix}.${key}` : key
    )
  );
}

/** What the body says, in one line, whatever its shape. */
export function describeBody(body: unknown): string | undefined {
  if (body === undefined || body === null) return undefined;
  if (typeof body === 'string') {
    if (/^\s*</.test(body)) {
      const title = /<title[^>]*>([^<]*)<\/title>/i.exec(body)?.[1]?.trim();
      return title ? `HTML page "${clip(title, 120)}"` : 'HTML page';
    }
    return clip(body);
  }
  if (typeof body === 'object' && !Array.isArray(body)) {
    const record = body as Record<string, unknown>;
    if (typeof record.detail === 'string') return clip(record.detail);
    // OAuth2 error answers (RFC 6749 §5.2)
    if (typeof record.error === 'string') {
      const description =
        typeof record.error_description === 'string' ? `: ${record.error_description}` : '';
      return clip(`${record.error}${description}`);
    }
  }
  const errors = fieldErrors(body);
  return clip(errors.length > 0 ? errors.join('; ') : JSON.stringify(body));
}

export function statusLine(status: number, statusText?: string): string {
  const text = statusText && statusText.trim() !== '' ? statusText : STATUS_CODES[status];
  return text ? `${status} ${text}` : String(status);
}

/** What an answer says, redacted by `redact`: its body for display, status line and Retry-After, and ": " + its body in one line. */
export function answerOf(response: RawResponse, redact: <T>(value: T) => T) {
  const body = redact(bodyForDisplay(response.text));
  const detail = describeBody(body);
  return {
    body,
    status: response.status,
    retryAfterMs: parseRetryAfter(response.headers.get('retry-after')),
    line: statusLine(response.status, response.statusText),
    detail: detail ? `: ${detail}` : '',
  };
}
