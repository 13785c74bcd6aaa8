import { MappingError } from './errors';

/** A printable hint of a value for error messages, short enough for a status line. */
export function show(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'null';
  if (typeof value === 'string')
    return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
  if (Array.isArray(value)) return `a list of ${value.length}`;
  if (value instanceof Date)
    return Number.isNaN(value.getTime()) ? 'an invalid date' : value.toISOString();
  if (typeof value === 'object') return 'an object';
  return String(value);
}

/** Nothing, or text of blanks only: what an editor leaves in a field they did not fill. */
export const isBlank = (v: unknown) => v == null || (typeof v === 'string' && v.trim() === '');

/** A value as the list of its present items (a relation, a repeatable component, a JSON list). */
export const itemsOf = (value: unknown): unknown[] => [value].flat().filter((v) => v != null);

/** One value where one is expected: a list of one is fine, more is a modelling mistake to report, not to pick from. */
export function single(value: unknown, field: string, path: string): unknown {
  if (!Array.isArray(value)) return value;
  const present = value.filter((v) => v != null && v !== '');
  if (present.length <= 1) return present[0];
  throw new MappingError(field, `'${path}' gives ${present.length} values, one is needed`);
}

/** Text as the remote wants it: trimmed, but otherwise untouched (emoji, right-to-left marks). */
export function toText(value: unknown, field: string, path: string): string | undefined {
  const v = single(value, field, path);
  if (v == null) return undefined;
  if (typeof v === 'string') return v.trim();
  if (['number', 'bigint', 'boolean'].includes(typeof v)) return String(v);
  throw new MappingError(field, `expected text at '${path}', got ${show(v)}`);
}

const NUMERIC = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;

/** Numbers may arrive as strings (decimal and biginteger columns); anything not finite is refused. */
export function toNumber(value: unknown, field: string, path: string): number | undefined {
  const v = single(value, field, path);
  if (isBlank(v)) return undefined;
  const numeric =
    typeof v === 'string' ? NUMERIC.test(v.trim()) : ['number', 'bigint'].includes(typeof v);
  if (!numeric) throw new MappingError(field, `expected a number at '${path}', got ${show(v)}`);
  // Number() ignores the blanks around a numeric text.
  const n = Number(v);
  if (!Number.isFinite(n))
    throw new MappingError(field, `expected a finite number at '${path}', got ${show(v)}`);
  return n;
}
