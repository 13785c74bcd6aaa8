import { createCipheriv, createHash, randomBytes } from 'node:crypto';

/**
 * A client secret sealed as 0.1 sealed it (its key came from every app secret joined), written
 * out here so that tests do not read the format through the code under test.
 */
export const sealV1 = (plain: string, material: string[]) => {
  const key = createHash('sha256')
    .update(`location-content:${material.join('|')}`)
    .digest();
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return ['v1', iv, cipher.getAuthTag(), data].map((p) => p.toString('base64')).join(':');
};
