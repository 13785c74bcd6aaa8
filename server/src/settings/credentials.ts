import type { Core } from '@strapi/strapi';
import { decrypt, deriveKey, encrypt } from './crypto';
import type { PluginConfig } from '../config/types';
import { PLUGIN_ID } from '../permissions';
import type { CredentialField, PublicSettings } from '../../../shared/contracts/settings';

export interface Credentials {
  baseUrl: string;
  clientId: string;
  clientSecret: string;
}

type Field = CredentialField;

interface StoredSettings {
  baseUrl?: string;
  clientId?: string;
  /** encrypted */
  clientSecret?: string;
}

export type { PublicSettings };

const STORE_KEY = 'settings';

export const createCredentialsStore = (strapi: Core.Strapi) => {
  const store = () => strapi.store({ type: 'plugin', name: PLUGIN_ID });
  const config = () => strapi.config.get(`plugin::${PLUGIN_ID}`) as PluginConfig;
  const key = () =>
    deriveKey([
      strapi.config.get('admin.secrets.encryptionKey') as string,
      ...((strapi.config.get('server.app.keys') as string[]) ?? []),
    ]);

  const read = async (): Promise<StoredSettings> =>
    ((await store().get({ key: STORE_KEY })) as StoredSettings) ?? {};

  const lockedFields = (): Partial<Record<Field, string>> => {
    const locked: Partial<Record<Field, string>> = {};
    for (const field of ['baseUrl', 'clientId', 'clientSecret'] as const) {
      if (config()[field])
        locked[field] = 'Set in config/plugins (or its environment variable): change it there.';
    }
    return locked;
  };

  /** Effective credentials: config/env first, then what an admin saved. */
  const get = async (): Promise<Partial<Credentials>> => {
    const saved = await read();
    const cfg = config();
    let savedSecret: string | undefined;
    if (!cfg.clientSecret && saved.clientSecret) {
      try {
        savedSecret = decrypt(saved.clientSecret, key());
      } catch {
        strapi.log.error(
          '[location-content] The saved client secret cannot be decrypted (were the app keys changed?). Enter it again in Settings > Location Content.'
        );
      }
    }
    return {
      baseUrl: cfg.baseUrl || saved.baseUrl,
      clientId: cfg.clientId || saved.clientId,
      clientSecret: cfg.clientSecret || savedSecret,
    };
  };

  const complete = (c: Partial<Credentials>): c is Credentials =>
    Boolean(c.baseUrl && c.clientId && c.clientSecret);

  const publicView = async (): Promise<PublicSettings> => {
    const c = await get();
    return {
      baseUrl: c.baseUrl ?? null,
      clientId: c.clientId ?? null,
      secretSet: Boolean(c.clientSecret),
      secretLast4: c.clientSecret && c.clientSecret.length >= 8 ? c.clientSecret.slice(-4) : null,
      locked: lockedFields(),
      configured: complete(c),
    };
  };

  /** `clientSecret` undefined or '' keeps the saved one: the admin never sees it to send it back. */
  const save = async (input: { baseUrl?: string; clientId?: string; clientSecret?: string }) => {
    const saved = await read();
    const next: StoredSettings = { ...saved };
    if (input.baseUrl !== undefined) next.baseUrl = input.baseUrl.trim().replace(/\/+$/, '');
    if (input.clientId !== undefined) next.clientId = input.clientId.trim();
    if (input.clientSecret) next.clientSecret = encrypt(input.clientSecret, key());
    await store().set({ key: STORE_KEY, value: next });
  };

  return { get, complete, publicView, save, lockedFields };
};

export type CredentialsStore = ReturnType<typeof createCredentialsStore>;
