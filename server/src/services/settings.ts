import type { Core } from '@strapi/strapi';
import { pushRefusal } from '../config/environment';
import { pluginConfig } from '../sync/shared/config';
import { createRemoteClient, type RemoteClient } from '../remote';
import { httpFetch } from '../remote/transport';
import { createCredentialsStore, type Credentials } from '../settings/credentials';
import { createLimiter, type Limiter } from '../remote/limiter';

/**
 * The account the sync pushes to: the saved credentials, the one remote client built on them and
 * the rate limiter every call to the remote goes through.
 */
export default ({ strapi }: { strapi: Core.Strapi }) => {
  const config = () => pluginConfig(strapi);
  const credentials = createCredentialsStore(strapi);
  type Saved = Awaited<ReturnType<typeof credentials.get>>;
  const listeners: Array<() => void> = [];

  let limiter: Limiter | undefined;
  let client: { key: string; client: RemoteClient } | undefined;

  const getLimiter = () =>
    (limiter ??= createLimiter({
      requestsPerSecond: config().rateLimit.requestsPerSecond,
      concurrency: config().rateLimit.concurrency,
      onPause: (ms) =>
        strapi.log.warn(
          `[location-content] the remote asked to slow down: pausing all calls for ${Math.ceil(ms / 1000)} s`
        ),
    }));

  /** Bumped when an admin saves credentials: a read of them that started before is stale. */
  let credentialsVersion = 0;

  // Read from the store at most every 2 s, at once after a save here; another instance's save is
  // seen within that time.
  let cached: { at: number; version: number; value: Promise<Saved> } | undefined;
  const current = (): Promise<Saved> => {
    if (!cached || cached.version !== credentialsVersion || Date.now() - cached.at > 2000) {
      const value = credentials.get();
      cached = { at: Date.now(), version: credentialsVersion, value };
      value.catch(() => (cached = undefined));
    }
    return cached.value;
  };

  const buildClient = (c: Credentials, opts: { limited?: boolean } = {}) =>
    createRemoteClient({
      ...c,
      timeoutMs: config().requestTimeoutMs,
      fetch: opts.limited === false ? undefined : getLimiter().wrap(httpFetch),
      logger: { info: (m) => strapi.log.info(`[location-content] ${m}`) },
    });

  /** One client per set of credentials, so a token is shared by every push and renewed once. */
  const remoteClient = async (): Promise<RemoteClient> => {
    let c: Saved;
    for (;;) {
      // A read from before a save must not swap the old client back in: each swap loses the
      // token, and the redactor that knows the tokens already issued.
      const version = credentialsVersion;
      c = await current();
      if (version === credentialsVersion) break;
    }
    if (!credentials.complete(c))
      throw new Error(
        'The Location Content API is not configured: set the base URL, client id and secret in Settings > Location Content.'
      );
    const key = `${c.baseUrl}\n${c.clientId}\n${c.clientSecret}`;
    if (client?.key !== key) client = { key, client: buildClient(c) };
    return client.client;
  };

  return {
    credentials,
    current,
    remoteClient,
    limiter: getLimiter,
    /** Whether this instance pushes now: sync on, an environment of pushIn, credentials complete. */
    canPush: async () => pushRefusal(config()) === null && credentials.complete(await current()),
    /** For the settings page: a client on given credentials, outside the rate-limited queue of the sync. */
    testClient: (c: Credentials) => buildClient(c, { limited: false }),
    /** Called after each change of the credentials (the sync wakes its worker). */
    onChange(listener: () => void) {
      listeners.push(listener);
    },
    /** Drops the cached client so that changed credentials take effect at the next push. */
    changed() {
      credentialsVersion += 1;
      client = undefined;
      for (const listener of listeners) listener();
    },
    close() {
      limiter?.stop();
    },
  };
};
