import type { Core } from '@strapi/strapi';
import { open, seal, type AppSecrets } from './crypto';
import { PLUGIN_ID } from '../permissions';
import { pluginConfig } from '../sync/shared/config';
import type { CredentialField, PublicSettings } from '../../../shared/contracts/settings';

export type Credentials = Record<CredentialField, string>;
export const CREDENTIAL_FIELDS = ['baseUrl', 'clientId', 'clientSecret'] as const;

/** As saved: the secret is sealed (crypto.ts). */
type StoredSettings = Partial<Credentials>;

const STORE_KEY = 'settings';

/** What the settings page, the dashboard, `status()` and the log say when the saved secret cannot be opened. */
export const SECRET_UNREADABLE =
  "The stored client secret cannot be read with this app's keys (APP_KEYS and admin.secrets.encryptionKey): enter it again in Settings > Location Content.";

export const createCredentialsStore = (strapi: Core.Strapi) => {
  const store = () => strapi.store({ type: 'plugin', name: PLUGIN_ID });
  const config = () => pluginConfig(strapi);
  const secrets = (): AppSecrets => ({
    encryptionKey: strapi.config.get('admin.secrets.encryptionKey') as string | undefined,
    appKeys: strapi.config.get('server.app.keys') as string[] | undefined,
  });
  /** Set while the saved secret cannot be opened: one log line and one alert per such episode. */
  let unreadableSince: number | undefined;
  const unreadableListeners: Array<() => void> = [];

  const read = async (): Promise<StoredSettings> =>
    ((await store().get({ key: STORE_KEY })) as StoredSettings) ?? {};

  const LOCKED = 'Set in config/plugins (or its environment variable): change it there.';
  const lockedFields = (): PublicSettings['locked'] =>
    Object.fromEntries(CREDENTIAL_FIELDS.filter((f) => config()[f]).map((f) => [f, LOCKED]));

  const opened = (sealed: string | undefined) => {
    if (!sealed) return undefined;
    try {
      const { plain } = open(sealed, secrets());
      if (unreadableSince !== undefined) {
        unreadableSince = undefined;
        strapi.log.info('[location-content] the saved client secret can be read again');
      }
      return plain;
    } catch {
      if (unreadableSince === undefined) {
        unreadableSince = Date.now();
        strapi.log.error(`[location-content] ${SECRET_UNREADABLE} Changes wait in the queue.`);
        for (const listener of unreadableListeners) listener();
      }
      return undefined;
    }
  };

  /** Effective credentials: config/env first, then what an admin saved. */
  const get = async (): Promise<Partial<Credentials>> => {
    const saved = await read();
    const cfg = config();
    return {
      baseUrl: cfg.baseUrl || saved.baseUrl,
      clientId: cfg.clientId || saved.clientId,
      // Not opened when the config sets one: an unreadable saved secret then raises no alert.
      clientSecret: cfg.clientSecret || opened(saved.clientSecret),
    };
  };

  /** Whether the saved secret is there and none of this app's keys opens it, as of the last get(). */
  const secretUnreadable = (): boolean => unreadableSince !== undefined && !config().clientSecret;

  // At boot (keys change only with a restart): a secret opened by another key than the first, or
  // in 0.1's format, is sealed again with the first key, so the old key can later be removed.
  const reseal = async (): Promise<boolean> => {
    if (config().clientSecret) return false;
    const rows = strapi.db.query('strapi::core-store');
    const where = { key: `plugin_${PLUGIN_ID}_${STORE_KEY}`, environment: null, tag: null };
    const row = (await rows.findOne({ where })) as { id: number; value: string } | null;
    const saved = row ? (JSON.parse(row.value) as StoredSettings | null) : null;
    if (!row || !saved?.clientSecret) return false;
    let opened: ReturnType<typeof open>;
    try {
      opened = open(saved.clientSecret, secrets());
    } catch {
      return false;
    }
    if (!opened.stale) return false;
    const next: StoredSettings = { ...saved, clientSecret: seal(opened.plain, secrets()) };
    // Only over the row as read: a save by another instance meanwhile wins, never an older secret.
    const { count } = await rows.updateMany({
      where: { id: row.id, value: row.value },
      data: { value: JSON.stringify(next) },
    });
    if (!count) return false;
    strapi.log.info(
      "[location-content] the saved client secret is now sealed with this app's first key"
    );
    return true;
  };

  const complete = (c: Partial<Credentials>): c is Credentials =>
    CREDENTIAL_FIELDS.every((f) => c[f]);

  /** What the admin may see of effective credentials (as `get()` returned them): never the secret. */
  const viewOf = (c: Partial<Credentials>): PublicSettings => ({
    baseUrl: c.baseUrl ?? null,
    clientId: c.clientId ?? null,
    secretSet: Boolean(c.clientSecret),
    secretUnreadable: secretUnreadable(),
    secretLast4: c.clientSecret && c.clientSecret.length >= 8 ? c.clientSecret.slice(-4) : null,
    locked: lockedFields(),
    configured: complete(c),
  });

  const publicView = async (): Promise<PublicSettings> => viewOf(await get());

  /** `clientSecret` undefined or '' keeps the saved one: the admin never sees it to send it back. */
  const save = async (input: Partial<Credentials>) => {
    const saved = await read();
    const next: StoredSettings = { ...saved };
    if (input.baseUrl !== undefined) next.baseUrl = input.baseUrl.trim().replace(/\/+$/, '');
    if (input.clientId !== undefined) next.clientId = input.clientId.trim();
    if (input.clientSecret) next.clientSecret = seal(input.clientSecret, secrets());
    await store().set({ key: STORE_KEY, value: next });
  };

  return {
    get,
    complete,
    publicView,
    viewOf,
    save,
    reseal,
    secretUnreadable,
    /** Called once when an episode of an unreadable secret starts (the credentials alert). */
    onUnreadable(listener: () => void) {
      unreadableListeners.push(listener);
    },
  };
};
