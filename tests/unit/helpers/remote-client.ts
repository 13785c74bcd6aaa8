import { createRemoteClient, RemoteError } from '../../../server/src/remote';
import type { RemoteClientOptions } from '../../../server/src/remote';
import { fakeFetch, type FakeHandler } from './fake-fetch';

// Shared by the remote-client-*.test.ts files: a client on a fake fetch, and its fixed credentials.
export const BASE = 'https://api.example.test';
export const SECRET = 'S3cr3t-client-secret-value';
export const TOKEN = 'tok-AAAAAAAAAAAAAAAAAAAAAAAAAAAA';

export function client(
  handler: FakeHandler,
  extra: Partial<RemoteClientOptions> = {},
  token?: FakeHandler
) {
  const fake = fakeFetch(handler, token);
  const remote = createRemoteClient({
    baseUrl: BASE,
    clientId: 'my-client',
    clientSecret: SECRET,
    fetch: fake.fetch,
    timeoutMs: 30_000,
    ...extra,
  });
  return { ...fake, remote };
}

export async function caught(promise: Promise<unknown>): Promise<RemoteError> {
  try {
    await promise;
  } catch (err) {
    expect(err).toBeInstanceOf(RemoteError);
    return err as RemoteError;
  }
  throw new Error('expected a RemoteError');
}

export const pinpoint = (id: number) => ({ id, name: `P${id}`, latitude: 1, longitude: 2 });
