import { errors } from '@strapi/utils';
import type { PublicSettings, SettingsInput } from '../../../shared/contracts/settings';

/** A ValidationError of Strapi's, so its error middleware answers 400 with `details.field` for the form. */
const inputError = (message: string, field?: keyof SettingsInput) =>
  new errors.ValidationError(message, field ? { field } : {});

const LIMITS = {
  baseUrl: { label: 'Base URL', max: 2048 },
  clientId: { label: 'Client id', max: 256 },
  clientSecret: { label: 'Client secret', max: 1024 },
};
const FIELDS = Object.keys(LIMITS) as Array<keyof SettingsInput>;

/** Checks the shape of a settings body; throws a ValidationError with a sentence an admin can act on. */
export function parseSettingsInput(body: unknown): SettingsInput {
  if (body === undefined || body === null) return {};
  if (typeof body !== 'object' || Array.isArray(body))
    throw inputError('Expected a JSON object { baseUrl?, clientId?, clientSecret? }.');
  const record = body as Record<string, unknown>;
  const unknown = Object.keys(record).filter((k) => !FIELDS.includes(k as keyof SettingsInput));
  if (unknown.length)
    throw inputError(
      `Unknown field${unknown.length > 1 ? 's' : ''}: ${unknown.join(', ')}. Expected baseUrl, clientId, clientSecret.`
    );
  const out: SettingsInput = {};
  for (const field of FIELDS) {
    const value = record[field];
    if (value === undefined || value === null) continue;
    if (typeof value !== 'string')
      throw inputError(`${LIMITS[field].label} must be a string.`, field);
    if (value.length > LIMITS[field].max)
      throw inputError(
        `${LIMITS[field].label} is too long (at most ${LIMITS[field].max} characters).`,
        field
      );
    out[field] = field === 'clientSecret' ? value : value.trim();
  }
  if (out.baseUrl !== undefined) out.baseUrl = checkBaseUrl(out.baseUrl);
  if (out.clientId === '') throw inputError('Client id is required.', 'clientId');
  if (out.clientSecret && out.clientSecret.trim() !== out.clientSecret)
    throw inputError(
      'Client secret starts or ends with a space: paste it again without the spaces.',
      'clientSecret'
    );
  return out;
}

/** The API root, normalized without a trailing slash; refuses what the remote client would refuse. */
function checkBaseUrl(value: string): string {
  const url = URL.parse(value);
  const problem =
    value === ''
      ? 'Base URL is required, e.g. https://api.getwemap.com.'
      : !url
        ? `Base URL "${value}" is not a URL: it should look like https://api.getwemap.com.`
        : url.protocol !== 'https:' && url.protocol !== 'http:'
          ? 'Base URL must start with https:// (or http:// for a local server).'
          : url.username || url.password
            ? 'Base URL must not contain a user name or password: use the client id and secret fields.'
            : url.search || url.hash
              ? 'Base URL must not contain a query (?…) or a fragment (#…).'
              : null;
  if (problem) throw inputError(problem, 'baseUrl');
  return value.replace(/\/+$/, '');
}

/**
 * Fields fixed by config/plugins may not be changed here. Sending the same value back is harmless and ignored,
 * so a form that posts everything still works.
 */
export function withoutLocked(input: SettingsInput, current: PublicSettings): SettingsInput {
  const out: SettingsInput = { ...input };
  for (const field of FIELDS) {
    if (!current.locked[field] || out[field] === undefined) continue;
    const same =
      field === 'clientSecret'
        ? out[field] === ''
        : out[field] === (current[field as 'baseUrl' | 'clientId'] ?? '');
    if (!same)
      throw inputError(
        `${LIMITS[field].label} is set in config/plugins (or its environment variable): change it there.`,
        field
      );
    delete out[field];
  }
  return out;
}

/**
 * The saved secret only ever goes to the host it was saved for: pointing the base URL at another host
 * requires typing the secret again, so nobody can send it to a server of their choosing.
 */
export function requireSecretForNewHost(input: SettingsInput, current: PublicSettings): void {
  if (
    input.baseUrl === undefined ||
    input.clientSecret ||
    current.locked.clientSecret ||
    !current.secretSet
  )
    return;
  const origin = (value: string | null) => (value ? URL.parse(value)?.origin : undefined);
  const before = origin(current.baseUrl);
  if (before && origin(input.baseUrl) !== before) {
    throw inputError(
      `The base URL points to another host (${new URL(input.baseUrl).host}): enter the client secret again. The saved secret is only sent to ${new URL(current.baseUrl!).host}.`,
      'clientSecret'
    );
  }
}
