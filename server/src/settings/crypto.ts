import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

/**
 * AES-256-GCM with a key derived from one of the app's own secrets, so a copied database alone does
 * not reveal the client secret. A secret is sealed with one key (`admin.secrets.encryptionKey`,
 * which Strapi keeps stable for its own tokens, else the first of APP_KEYS) and opened with any of
 * them, so putting a new key in front of APP_KEYS, as Strapi's docs advise, keeps it readable.
 * `v1` (0.1) derived its key from all the secrets joined: any rotation made it unreadable.
 */
export interface AppSecrets {
  encryptionKey?: string | null;
  appKeys?: string[] | null;
}

export const NO_APP_SECRET =
  'No app secret is configured to encrypt the client secret (set APP_KEYS or admin.secrets.encryptionKey).';

/** Every usable secret of the app, the sealing one first. */
const materials = (secrets: AppSecrets) =>
  [secrets.encryptionKey, ...(secrets.appKeys ?? [])].filter(
    (v): v is string => typeof v === 'string' && v.length > 0
  );

const keyOf = (material: string) =>
  createHash('sha256').update(`location-content:v2:${material}`).digest();

/** The key of the 0.1 format: kept to open (and re-seal) what was stored before. */
const legacyKey = (secrets: AppSecrets) => {
  const all = materials(secrets);
  return all.length
    ? createHash('sha256')
        .update(`location-content:${all.join('|')}`)
        .digest()
    : undefined;
};

/** The sealing key first, then every other key a secret may have been sealed with. */
const keysOf = (secrets: AppSecrets): Buffer[] => {
  const unique = [...new Set(materials(secrets))];
  if (!unique.length) throw new Error(NO_APP_SECRET);
  return unique.map(keyOf);
};

export function seal(plain: string, secrets: AppSecrets): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', keysOf(secrets)[0], iv);
  const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  const parts = [iv, cipher.getAuthTag(), data].map((b) => b.toString('base64'));
  return ['v2', ...parts].join(':');
}

const decipher = (key: Buffer, iv: string, tag: string, data: string): string | undefined => {
  try {
    const d = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64'));
    d.setAuthTag(Buffer.from(tag, 'base64'));
    return Buffer.concat([d.update(Buffer.from(data, 'base64')), d.final()]).toString('utf8');
  } catch {
    return undefined;
  }
};

/**
 * The plain secret, and whether it should be sealed again (an older format, or a key that is no
 * longer the first). Throws when none of the app's secrets opens it.
 */
export function open(sealed: string, secrets: AppSecrets): { plain: string; stale: boolean } {
  const [version, iv, tag, data] = sealed.split(':');
  if (!iv || !tag || data === undefined || (version !== 'v1' && version !== 'v2'))
    throw new Error('The stored client secret has an unknown format.');
  const keys = version === 'v2' ? keysOf(secrets) : [legacyKey(secrets)];
  for (const [i, key] of keys.entries()) {
    const plain = key && decipher(key, iv, tag, data);
    if (plain !== undefined) return { plain, stale: version === 'v1' || i > 0 };
  }
  throw new Error('The stored client secret cannot be read with the app keys of this app.');
}
