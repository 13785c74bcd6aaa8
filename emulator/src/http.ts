import type { IncomingMessage, ServerResponse } from 'node:http';

/** An answer decided anywhere in the pipeline: thrown, caught by the server, sent as is. */
export class EmulatorApiError extends Error {
  constructor(
    public readonly status: number,
    public readonly body: unknown,
    public readonly headers: Record<string, string> = {}
  ) {
    super(
      typeof body === 'object' && body && 'detail' in body
        ? `HTTP ${status}: ${String((body as { detail: unknown }).detail)}`
        : `HTTP ${status}: ${JSON.stringify(body)}`
    );
    this.name = 'EmulatorApiError';
  }

  /** The answer this error stands for. */
  toReply(): Reply {
    return { status: this.status, body: this.body, headers: this.headers };
  }
}

export const notFound = (): EmulatorApiError => new EmulatorApiError(404, { detail: 'Not found.' });

/** DRF's Allow header: `allowed` and the methods every view answers. */
export const allowHeader = (allowed: string[]): string =>
  [...allowed, 'HEAD', 'OPTIONS'].join(', ');

/** DRF's 405, with the Allow header. */
export const methodNotAllowed = (method: string, allowed: string[]): EmulatorApiError =>
  new EmulatorApiError(
    405,
    { detail: `Method "${method}" not allowed.` },
    { allow: allowHeader(allowed) }
  );

/** A response ready to be written (or withheld, for a reset-after fault). */
export interface Reply {
  status: number;
  /** JSON-serialisable body, a Buffer/string (sent raw), or undefined for no body. */
  body?: unknown;
  headers?: Record<string, string>;
  /** The body is not JSON: send it raw with headers['content-type']. */
  raw?: boolean;
}

export function json(status: number, body?: unknown, headers?: Record<string, string>): Reply {
  return { status, body, headers };
}

export function writeReply(res: ServerResponse, reply: Reply, headOnly = false): void {
  const headers: Record<string, string | number> = { ...(reply.headers ?? {}) };
  let payload: Buffer | string | undefined;
  if (reply.body !== undefined && reply.status !== 204 && reply.status !== 304) {
    if (reply.raw) {
      payload = reply.body as Buffer | string;
    } else {
      payload = JSON.stringify(reply.body);
      headers['content-type'] = 'application/json';
    }
    headers['content-length'] = Buffer.byteLength(payload);
  } else if (reply.status !== 204 && reply.status !== 304) {
    headers['content-length'] = 0;
  }
  res.writeHead(reply.status, headers);
  if (payload !== undefined && !headOnly) res.end(payload);
  else res.end();
}

export type BodyResult =
  | { ok: true; body: Buffer }
  | { ok: false; tooLarge: true; received: number }
  | { ok: false; tooLarge: false; error: Error };

/**
 * Read the whole request body up to `limit` bytes. Past the limit the rest is drained and
 * discarded (up to `drainLimit`, then the socket is destroyed) so the client still gets a 413.
 */
export function readBody(
  req: IncomingMessage,
  limit: number,
  drainLimit: number
): Promise<BodyResult> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let over = false;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (over) {
        if (size > drainLimit) req.socket.destroy();
        return;
      }
      if (size > limit) {
        over = true;
        chunks.length = 0;
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => {
      if (over) resolve({ ok: false, tooLarge: true, received: size });
      else resolve({ ok: true, body: chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks) });
    });
    req.on('error', (error: Error) => resolve({ ok: false, tooLarge: false, error }));
    req.on('close', () => {
      if (!req.readableEnded)
        resolve({ ok: false, tooLarge: false, error: new Error('request aborted') });
    });
  });
}

/** The JSON value of a request body; DRF's 400 when it does not parse. */
export function parseJsonBody(body: Buffer): unknown {
  try {
    return JSON.parse(body.toString('utf8'));
  } catch (err) {
    throw new EmulatorApiError(400, {
      detail: `JSON parse error - ${err instanceof Error ? err.message : String(err)}`,
    });
  }
}

/** The media type of a Content-Type header, lower-cased, without parameters; '' when absent. */
export function mediaTypeOf(header: string | undefined): string {
  if (!header) return '';
  const semi = header.indexOf(';');
  return (semi === -1 ? header : header.slice(0, semi)).trim().toLowerCase();
}
