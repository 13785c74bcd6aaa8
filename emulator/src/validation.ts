/**
 * Request validation with Django REST framework's habits: 400 with a field-keyed body
 * {"field": ["This field is required."]}, nested objects for media files, strings trimmed.
 * Only the fields the contract lists for a request are read; `strict` rejects the others.
 */
import { EmulatorApiError } from './http';
import type { DecodedMedia } from './media';

export type Mode = 'create' | 'merge' | 'replace';

export interface ValidationContext {
  mode: Mode;
  strict: boolean;
  maxMediaBytes: number;
  pinpointExists(id: number): boolean;
  categoryExists(id: number): boolean;
}

/** A parsed date range, epoch ms. */
export interface ParsedRange {
  start: number;
  end: number;
}

type FieldType =
  | 'name'
  | 'text'
  | 'latitude'
  | 'longitude'
  | 'number'
  | 'category'
  | 'pinpoint'
  | 'tags'
  | 'media'
  | 'image'
  | 'dates';

interface FieldSpec {
  type: FieldType;
  required?: boolean;
}

export const SCHEMAS: Record<
  'pinpoints' | 'events' | 'categories' | 'lists',
  Record<string, FieldSpec>
> = {
  pinpoints: {
    name: { type: 'name', required: true },
    description: { type: 'text' },
    address: { type: 'text' },
    latitude: { type: 'latitude', required: true },
    longitude: { type: 'longitude', required: true },
    altitude: { type: 'number' },
    category: { type: 'category' },
    tags: { type: 'tags' },
    media_credits: { type: 'text' },
    media_file: { type: 'media' },
  },
  events: {
    name: { type: 'name', required: true },
    description: { type: 'text' },
    dates: { type: 'dates', required: true },
    pinpoint: { type: 'pinpoint', required: true },
    tags: { type: 'tags' },
    media_credits: { type: 'text' },
    media_file: { type: 'media' },
  },
  categories: {
    name: { type: 'name', required: true },
    image_file: { type: 'image' },
  },
  lists: {
    name: { type: 'name', required: true },
    description: { type: 'text' },
  },
};

const REQUIRED = 'This field is required.';
const NOT_NULL = 'This field may not be null.';
const NOT_BLANK = 'This field may not be blank.';
const UNKNOWN = 'Unknown field.';

/** Python's name of a JSON value's type, as DRF puts it in messages. */
export function pyType(v: unknown): string {
  if (v === null) return 'NoneType';
  if (Array.isArray(v)) return 'list';
  switch (typeof v) {
    case 'string':
      return 'str';
    case 'boolean':
      return 'bool';
    case 'number':
      return Number.isInteger(v) ? 'int' : 'float';
    case 'object':
      return 'dict';
    default:
      return typeof v;
  }
}

export function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function expectObject(body: unknown): Record<string, unknown> {
  if (!isPlainObject(body)) {
    throw new EmulatorApiError(400, {
      non_field_errors: [`Invalid data. Expected a dictionary, but got ${pyType(body)}.`],
    });
  }
  return body;
}

const ISO_ANY =
  /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?(Z|[+-]\d{2}(?::?\d{2})?)$/;
const ISO_MS_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** Parse an ISO 8601 date-time that carries a time zone; NaN when it is not one. */
export function parseIsoDateTime(s: string): number {
  const m = ISO_ANY.exec(s);
  if (!m) return NaN;
  const [, y, mo, d, h, mi, se, frac, tz] = m;
  const year = Number(y);
  const month = Number(mo);
  const day = Number(d);
  const hour = Number(h);
  const minute = Number(mi);
  const second = se ? Number(se) : 0;
  if (month < 1 || month > 12 || day < 1 || hour > 23 || minute > 59 || second > 59) return NaN;
  const ms = frac ? Math.floor(Number(`0.${frac}`) * 1000) : 0;
  let t = Date.UTC(year, month - 1, day, hour, minute, second, ms);
  const check = new Date(Date.UTC(year, month - 1, day));
  if (check.getUTCDate() !== day || check.getUTCMonth() !== month - 1) return NaN; // 2023-02-30
  if (tz !== 'Z') {
    const sign = tz![0] === '-' ? -1 : 1;
    const digits = tz!.slice(1).replace(':', '');
    const oh = Number(digits.slice(0, 2));
    const om = digits.length > 2 ? Number(digits.slice(2, 4)) : 0;
    if (oh > 23 || om > 59) return NaN;
    t -= sign * (oh * 60 + om) * 60_000;
  }
  return t;
}

const MEDIA_TYPE = /^[a-z0-9][a-z0-9!#$&^_.+-]{0,126}\/[a-z0-9][a-z0-9!#$&^_.+-]{0,126}$/i;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

function validateMedia(
  v: unknown,
  ctx: ValidationContext,
  imageOnly: boolean
): { value?: DecodedMedia; errors?: Record<string, string[]> | string[] } {
  if (!isPlainObject(v)) {
    return { errors: [`Invalid data. Expected a dictionary, but got ${pyType(v)}.`] };
  }
  const errors: Record<string, string[]> = {};
  if (ctx.strict)
    for (const k of Object.keys(v))
      if (!['content', 'name', 'type'].includes(k)) errors[k] = [UNKNOWN];
  const str = (k: string): string | undefined => {
    const x = v[k];
    if (x === undefined) errors[k] = [REQUIRED];
    else if (x === null) errors[k] = [NOT_NULL];
    else if (typeof x !== 'string') errors[k] = ['Not a valid string.'];
    else if (!x.trim()) errors[k] = [NOT_BLANK];
    else return x;
    return undefined;
  };
  const content = str('content');
  const name = str('name');
  const type = str('type');
  let bytes: Buffer | undefined;
  if (content !== undefined) {
    const compact = /\s/.test(content) ? content.replace(/\s+/g, '') : content;
    if (compact.length % 4 !== 0 || !BASE64.test(compact)) {
      errors.content = [
        'Invalid base64: the content must be the standard base64 encoding of the file, with padding.',
      ];
    } else {
      const padding = compact.endsWith('==') ? 2 : compact.endsWith('=') ? 1 : 0;
      const size = (compact.length / 4) * 3 - padding;
      if (size === 0) errors.content = ['The submitted file is empty.'];
      else if (size > ctx.maxMediaBytes)
        errors.content = [`File too large: ${size} bytes; at most ${ctx.maxMediaBytes} bytes.`];
      else bytes = Buffer.from(compact, 'base64');
    }
  }
  if (type !== undefined) {
    if (!MEDIA_TYPE.test(type.trim()))
      errors.type = [`"${type}" is not a media type (expected e.g. image/png).`];
    else if (imageOnly && !type.trim().toLowerCase().startsWith('image/')) {
      errors.type = [
        'Upload a valid image. The file you uploaded was either not an image or a corrupted image.',
      ];
    }
  }
  if (Object.keys(errors).length) return { errors };
  return { value: { bytes: bytes!, name: name!.trim(), type: type!.trim().toLowerCase() } };
}

function validateDates(v: unknown, strict: boolean): { value?: ParsedRange[]; errors?: string[] } {
  if (!Array.isArray(v))
    return { errors: [`Expected a list of items but got type "${pyType(v)}".`] };
  if (v.length === 0) return { errors: ['This list may not be empty.'] };
  const errors: string[] = [];
  const out: ParsedRange[] = [];
  v.forEach((item, i) => {
    if (!isPlainObject(item)) {
      errors.push(`Item ${i}: Invalid data. Expected a dictionary, but got ${pyType(item)}.`);
      return;
    }
    if (strict)
      for (const k of Object.keys(item))
        if (k !== 'start' && k !== 'end') errors.push(`Item ${i}: ${k}: ${UNKNOWN}`);
    const parsed: Partial<ParsedRange> = {};
    for (const k of ['start', 'end'] as const) {
      const x = item[k];
      if (x === undefined) errors.push(`Item ${i}: ${k}: ${REQUIRED}`);
      else if (typeof x !== 'string')
        errors.push(
          `Item ${i}: ${k}: Datetime has wrong format: expected a string, got ${pyType(x)}.`
        );
      else if (strict && !ISO_MS_UTC.test(x)) {
        errors.push(
          `Item ${i}: ${k}: Datetime has wrong format. Use the ISO 8601 UTC form with milliseconds, e.g. 2018-02-16T20:00:00.000Z.`
        );
      } else {
        const t = parseIsoDateTime(x);
        if (Number.isNaN(t)) {
          errors.push(
            `Item ${i}: ${k}: Datetime has wrong format. Use one of these formats instead: YYYY-MM-DDThh:mm[:ss[.uuuuuu]][+HH:MM|-HH:MM|Z].`
          );
        } else parsed[k] = t;
      }
    }
    if (parsed.start !== undefined && parsed.end !== undefined) {
      if (parsed.end < parsed.start) errors.push(`Item ${i}: end must not be before start.`);
      else out.push(parsed as ParsedRange);
    }
  });
  return errors.length ? { errors } : { value: out };
}

/**
 * Validate a create/update body. Returns only the fields the request sets (null = clear);
 * throws a 400 with every field error at once.
 */
export function validateBody(
  kind: keyof typeof SCHEMAS,
  raw: unknown,
  ctx: ValidationContext
): Record<string, unknown> {
  const body = expectObject(raw);
  const schema = SCHEMAS[kind];
  const errors: Record<string, unknown> = {};
  const out: Record<string, unknown> = {};
  if (ctx.strict)
    for (const k of Object.keys(body))
      if (!Object.prototype.hasOwnProperty.call(schema, k)) errors[k] = [UNKNOWN];
  for (const [field, spec] of Object.entries(schema)) {
    const v = body[field];
    const mustHave = spec.required && ctx.mode !== 'merge';
    if (v === undefined) {
      if (mustHave) errors[field] = [REQUIRED];
      continue;
    }
    if (v === null) {
      if (spec.required) errors[field] = [NOT_NULL];
      else out[field] = null;
      continue;
    }
    switch (spec.type) {
      case 'name':
      case 'text': {
        if (typeof v !== 'string') errors[field] = ['Not a valid string.'];
        else if (spec.type === 'name' && !v.trim()) errors[field] = [NOT_BLANK];
        else out[field] = v.trim();
        break;
      }
      case 'latitude':
      case 'longitude':
      case 'number': {
        if (typeof v !== 'number' || !Number.isFinite(v)) {
          errors[field] = ['A valid number is required.'];
          break;
        }
        const lim = spec.type === 'latitude' ? 90 : spec.type === 'longitude' ? 180 : 1e6;
        if (v > lim) errors[field] = [`Ensure this value is less than or equal to ${lim}.`];
        else if (v < -lim)
          errors[field] = [`Ensure this value is greater than or equal to ${-lim}.`];
        else out[field] = v;
        break;
      }
      case 'category':
      case 'pinpoint': {
        if (typeof v !== 'number' || !Number.isInteger(v)) {
          errors[field] = [`Incorrect type. Expected pk value, received ${pyType(v)}.`];
          break;
        }
        // An integer too large for any id (e.g. 1e20) simply names no object.
        const exists =
          Number.isSafeInteger(v) &&
          (spec.type === 'category' ? ctx.categoryExists(v) : ctx.pinpointExists(v));
        if (!exists) errors[field] = [`Invalid pk "${BigInt(v)}" - object does not exist.`];
        else out[field] = v;
        break;
      }
      case 'tags': {
        if (!Array.isArray(v)) {
          errors[field] = [`Expected a list of items but got type "${pyType(v)}".`];
          break;
        }
        const msgs: string[] = [];
        v.forEach((t, i) => {
          if (typeof t !== 'string') msgs.push(`Item ${i}: Not a valid string.`);
          else if (!t.trim()) msgs.push(`Item ${i}: ${NOT_BLANK}`);
        });
        if (msgs.length) errors[field] = msgs;
        else out[field] = (v as string[]).map((t) => t.trim());
        break;
      }
      case 'media':
      case 'image': {
        const r = validateMedia(v, ctx, spec.type === 'image');
        if (r.errors) errors[field] = r.errors;
        else out[field] = r.value;
        break;
      }
      case 'dates': {
        const r = validateDates(v, ctx.strict);
        if (r.errors) errors[field] = r.errors;
        else out[field] = r.value;
        break;
      }
    }
  }
  if (Object.keys(errors).length) throw new EmulatorApiError(400, errors);
  return out;
}

/** Body of POST/DELETE /v3.0/lists/:id/pinpoints: a JSON array of {id: integer}. */
export function validateMembership(raw: unknown, strict: boolean): number[] {
  if (!Array.isArray(raw)) {
    throw new EmulatorApiError(400, {
      non_field_errors: [`Expected a list of items but got type "${pyType(raw)}".`],
    });
  }
  const errors: string[] = [];
  const ids: number[] = [];
  raw.forEach((item, i) => {
    if (!isPlainObject(item)) {
      errors.push(`Item ${i}: Invalid data. Expected a dictionary, but got ${pyType(item)}.`);
      return;
    }
    if (strict)
      for (const k of Object.keys(item)) if (k !== 'id') errors.push(`Item ${i}: ${k}: ${UNKNOWN}`);
    const id = item.id;
    if (id === undefined) errors.push(`Item ${i}: id: ${REQUIRED}`);
    else if (typeof id !== 'number' || !Number.isSafeInteger(id))
      errors.push(`Item ${i}: id: A valid integer is required.`);
    else ids.push(id);
  });
  if (errors.length) throw new EmulatorApiError(400, { non_field_errors: errors });
  return ids;
}
