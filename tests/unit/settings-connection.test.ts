import { createRemoteClient } from '../../server/src/remote';
import { testConnection } from '../../server/src/settings/connection';

// What the settings page's "Test connection" says when the client refuses its options.
it('answers invalid, with the sentence of the client, for a base URL the client refuses', async () => {
  const result = await testConnection(
    { baseUrl: 'https://user:pass@api.example.test', clientId: 'c', clientSecret: 'a-secret' },
    (c) => createRemoteClient({ ...c, timeoutMs: 1_000 }),
    { timeoutMs: 1_000 }
  );
  expect(result).toMatchObject({
    ok: false,
    code: 'invalid',
    host: 'api.example.test',
    message: 'Invalid base URL: it must not carry credentials, a query or a fragment',
  });
});
