import { RemoteError, bodyForDisplay } from './errors';
import type { Api, ApiResponse } from './http';
import { assertId } from './payloads';

/**
 * A 2xx answer the client cannot read is reported as a `server` error with the body kept. To a
 * write it is like a lost answer: the write may have taken effect, and is repeated as after a
 * timeout (a create looks for the object it may have made first: sync/push/create.ts). To a read
 * it is a contract breach that asking again would not mend.
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

export function itemPath(collection: string, id: number, what: string): string {
  return `${collection}/${assertId(id, what)}`;
}

export async function getOne<T>(api: Api, path: string, read: (raw: unknown) => T): Promise<T> {
  return readWith(await api.request({ method: 'GET', target: path }), read);
}

export async function sendOne<T>(
  api: Api,
  method: 'POST' | 'PUT',
  path: string,
  body: unknown,
  read: (raw: unknown) => T
): Promise<T> {
  return readWith(await api.request({ method, target: path, body }), read);
}

/** 204 and 200 (with or without a body) both mean gone; 404 throws `not_found` for the caller to judge. */
export async function deleteOne(api: Api, path: string): Promise<void> {
  await api.request({ method: 'DELETE', target: path });
}

/**
 * The contract does not show update (nor list) response bodies: when the answer
 * is empty or omits the id, the id asked for stands in, so success is not
 * turned into an error by an undocumented body.
 */
export function withKnownId<T>(id: number, read: (raw: unknown) => T): (raw: unknown) => T {
  return (raw) => {
    if (raw === undefined || raw === null || raw === '') return read({ id });
    if (typeof raw === 'object' && !Array.isArray(raw) && (raw as { id?: unknown }).id == null) {
      return read({ ...(raw as object), id });
    }
    return read(raw);
  };
}
