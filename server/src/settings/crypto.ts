import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

/**
 * AES-256-GCM with a key derived from the app's own secrets, so a copied database
 * alone does not reveal the client secret.
 */
export function deriveKey(material: string[]): Buffer {
  const usable = material.filter((m) => typeof m === 'string' && m.length > 0);
  if (!usable.length)
    throw new Error(
      'No app secret is configured to encrypt the client secret (set APP_KEYS or admin.secrets.encryptionKey).'
    );
  return createHash('sha256')
    .update(`location-content:${usable.join('|')}`)
    .digest();
}

export function encrypt(plain: string, key: Buffer): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return [
    'v1',
    iv.toString('base64'),
    cipher.getAuthTag().toString('base64'),
    data.toString('base64'),
  ].join(':');
}

export function decrypt(sealed: string, key: Buffer): string {
  const [version, iv, tag, data] = sealed.split(':');
  if (version !== 'v1' || !iv || !tag || data === undefined)
    throw new Error('The stored client secret has an unknown format.');
  const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64'));
  decipher.setAuthTag(Buffer.from(tag, 'base64'));
  return Buffer.concat([decipher.update(Buffer.from(data, 'base64')), decipher.final()]).toString(
    'utf8'
  );
}
