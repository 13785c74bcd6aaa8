import { errors } from '@strapi/utils';

/** Small body/query checks for the admin API: each failure is one sentence, which Strapi's error middleware answers as a 400. */
export const invalid = (message: string) => new errors.ValidationError(message);

export const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

export function objectBody(
  body: unknown,
  allowed: string[],
  shape: string
): Record<string, unknown> {
  if (body === undefined || body === null || body === '') return {};
  if (!isPlainObject(body)) throw invalid(`Expected a JSON object ${shape}.`);
  const unknown = Object.keys(body).filter((k) => !allowed.includes(k));
  if (unknown.length)
    throw invalid(
      `Unknown field${unknown.length > 1 ? 's' : ''} ${unknown.join(', ')}: expected ${shape}.`
    );
  return body;
}

/** documentId of Strapi 5: 24 lowercase alphanumerics by default; accept any reasonable token, refuse junk. */
export const DOCUMENT_ID = /^[A-Za-z0-9_-]{1,64}$/;
export const LOCALE = /^[A-Za-z0-9_-]{1,32}$/;
export const UID = /^[a-z0-9-]+::[a-z0-9-]+\.[a-z0-9-]+$/;

export function optionalLocale(value: unknown, where: string): string | null {
  if (value === undefined || value === null || value === '') return null;
  if (typeof value !== 'string' || !LOCALE.test(value))
    throw invalid(`${where} must be a locale code such as "en" or "fr-FR".`);
  return value;
}
