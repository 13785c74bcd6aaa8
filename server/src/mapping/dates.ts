import { collectProblems, MappingError } from './errors';
import { normalizeSource, readPath } from './paths';
import { isBlank, itemsOf, show } from './values';
import { InvalidDateError, toMsUtc as remoteToMsUtc } from '../remote/dates';
import type { DateRange } from '../remote/types';

/** The remote's `2018-02-16T20:00:00.000Z` by the remote client's parser: what mapping accepts, the payload builder does. */
export function toMsUtc(value: unknown, field: string): string {
  if (value instanceof Date || typeof value === 'string') {
    try {
      return remoteToMsUtc(value);
    } catch (err) {
      if (!(err instanceof InvalidDateError)) throw err;
    }
  }
  throw new MappingError(
    field,
    `${show(value)} is not a date (expected ISO 8601, e.g. 2024-05-01 or 2024-05-01T20:00:00+02:00)`
  );
}

export interface DatesSpec {
  /** where the ranges are; undefined: start and end are paths from the entry itself */
  path?: string;
  start: string;
  end: string;
}

export function isDatesSpecSource(
  source: unknown
): source is { path?: string; start?: string; end?: string } {
  return typeof source === 'object' && source !== null && ('start' in source || 'end' in source);
}

export function datesSpecOf(source: unknown): DatesSpec {
  if (!isDatesSpecSource(source))
    return { path: normalizeSource(source).path, start: 'start', end: 'end' };
  return {
    path: source.path || undefined,
    start: source.start || 'start',
    end: source.end || 'end',
  };
}

function rangeOf(item: unknown, spec: DatesSpec, field: string): DateRange {
  const fail = (reason: string) => new MappingError(field, reason);
  if (item instanceof Date || typeof item === 'string') {
    const at = toMsUtc(item, field);
    return { start: at, end: at };
  }
  if (item === null || typeof item !== 'object')
    throw fail(`expected a date or an object with '${spec.start}', got ${show(item)}`);
  const rawStart = readPath(item, spec.start);
  const rawEnd = readPath(item, spec.end);
  if (isBlank(rawStart)) throw fail(`no start at '${spec.start}'`);
  const start = toMsUtc(rawStart, field);
  // A range without end is an instant; editors leave the end empty for one-off happenings.
  const end = isBlank(rawEnd) ? start : toMsUtc(rawEnd, field);
  if (Date.parse(end) < Date.parse(start)) throw fail(`end ${end} is before start ${start}`);
  return { start, end };
}

/** Ranges from a repeatable component, a JSON list (of objects or dates), one object or one date. */
export async function mapDates(entry: unknown, spec: DatesSpec, field = 'dates') {
  const raw = spec.path === undefined ? entry : readPath(entry, spec.path);
  const where = spec.path === undefined ? `'${spec.start}'` : `'${spec.path}'`;
  let items = isBlank(raw) ? [] : itemsOf(raw);
  if (spec.path === undefined && items.length === 1 && isBlank(readPath(items[0], spec.start)))
    items = [];
  if (items.length === 0)
    throw new MappingError(field, `no dates at ${where}; the remote needs at least one`);

  const ranges: DateRange[] = [];
  const many = Array.isArray(raw);
  await collectProblems([...items.entries()], ([i, item]) =>
    ranges.push(rangeOf(item, spec, many ? `${field}[${i}]` : field))
  );
  return ranges;
}
