// The remote expects `2018-02-16T20:00:00.000Z` and answers in other ISO 8601 forms. `Date.parse`
// accepts `2018-02-31` and free text and drops zones inconsistently: the grammar is parsed here.

const ISO_8601 =
  /^([+-]\d{6}|\d{4})-?(\d{2})-?(\d{2})(?:[T ](\d{2})(?::?(\d{2})(?::?(\d{2})(?:[.,](\d+))?)?)?)?\s*(?:[Zz]|([+-])(\d{2})(?::?(\d{2}))?)?$/;

export class InvalidDateError extends Error {
  name = 'InvalidDateError';
  constructor(input: unknown) {
    super(
      `Not an ISO 8601 date: ${JSON.stringify(typeof input === 'string' ? input.slice(0, 64) : String(input))}`
    );
  }
}

/** Any ISO 8601 date or date-time (or a valid Date) as `YYYY-MM-DDTHH:mm:ss.sssZ`. */
export function toMsUtc(input: string | Date): string {
  if (input instanceof Date) {
    if (Number.isNaN(input.getTime())) throw new InvalidDateError(input);
    return input.toISOString();
  }
  const match = ISO_8601.exec(input.trim());
  if (!match) throw new InvalidDateError(input);
  const [, y, mo, d, h = '0', mi = '0', s = '0', fraction = '', sign, zh = '0', zm = '0'] = match;
  const [year, month, day, hour, minute, second] = [y, mo, d, h, mi, s].map(Number);
  const [zoneH, zoneM] = [zh, zm].map(Number);
  // Truncated, not rounded, so 23:59:59.9999 stays on its day.
  const ms = Number(fraction.padEnd(3, '0').slice(0, 3));
  // A date without a zone is UTC: the remote speaks UTC, the server's own zone must not leak.
  const offset = (sign === '-' ? -1 : 1) * (zoneH * 60 + zoneM);
  const endOfDay = hour === 24 && minute === 0 && second === 0 && ms === 0;
  if (
    zoneH > 23 ||
    zoneM > 59 ||
    month < 1 ||
    month > 12 ||
    day < 1 ||
    (hour > 23 && !endOfDay) ||
    minute > 59 ||
    second > 59
  ) {
    throw new InvalidDateError(input);
  }
  const base = new Date(0);
  base.setUTCFullYear(year, month - 1, day);
  // setUTCFullYear rolls 2018-02-31 over into March: a day it moved was not a date.
  if (base.getUTCMonth() !== month - 1 || base.getUTCDate() !== day)
    throw new InvalidDateError(input);
  const time = base.getTime() + ((hour * 60 + minute - offset) * 60 + second) * 1000 + ms;
  const result = new Date(time);
  if (Number.isNaN(result.getTime())) throw new InvalidDateError(input);
  return result.toISOString();
}
