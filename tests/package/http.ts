/** Requests to the booted app, the way its admin makes them. */

/** `B` is the JSON the caller expects; nothing checks it, so every use goes through an assert. */
export interface Reply<B = unknown> {
  status: number;
  /** The parsed JSON, or the text when it is not JSON, or null when empty. */
  body: B | undefined;
  text: string;
}

export async function http<B = unknown>(
  base: string,
  method: string,
  url: string,
  opts: { token?: string; body?: unknown } = {}
): Promise<Reply<B>> {
  const headers: Record<string, string> = {};
  if (opts.token) headers.Authorization = `Bearer ${opts.token}`;
  if (opts.body !== undefined) headers['Content-Type'] = 'application/json';
  const res = await fetch(base + url, {
    method,
    headers,
    body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
  });
  const text = await res.text();
  let body: unknown = text;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    /* not JSON */
  }
  return { status: res.status, body: body as B, text };
}

/** A reply in one line, for a failed assert. */
export const short = (r: Reply) => `${r.status} ${r.text.slice(0, 300)}`;
