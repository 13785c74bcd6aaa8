/** Defaults and checks of the settings that can change at run time. */
import { validateRateLimit } from './ratelimit';
import type { DateStyle, EmulatorConfig } from './types';

export const DEFAULT_CONFIG: EmulatorConfig = {
  putMode: 'merge',
  strict: false,
  pageSize: 20,
  maxMediaBytes: 5 * 1024 * 1024,
  rateLimit: null,
  dateStyle: 'ms-utc',
  tokenTtl: 36000,
  extraFields: true,
  pinpointDeleteTakesEvents: true,
  pagination: 'cursor',
  coordinateDecimals: null,
};

const DATE_STYLES: DateStyle[] = ['ms-utc', 'utc-offset', 'microseconds', 'local-offset', 'mixed'];

/** Check a partial config (from options, the CLI or PUT /__emulator/config); throws TypeError with a clear message. */
export function validateConfigPatch(patch: unknown): Partial<EmulatorConfig> {
  if (!patch || typeof patch !== 'object' || Array.isArray(patch))
    throw new TypeError('config must be a JSON object');
  const p = patch as Record<string, unknown>;
  const out: Partial<EmulatorConfig> = {};
  for (const [k, v] of Object.entries(p)) {
    switch (k) {
      case 'putMode':
        if (v !== 'merge' && v !== 'replace')
          throw new TypeError("putMode must be 'merge' or 'replace'");
        out.putMode = v;
        break;
      case 'strict':
      case 'extraFields':
      case 'pinpointDeleteTakesEvents':
        if (typeof v !== 'boolean') throw new TypeError(`${k} must be a boolean`);
        out[k] = v;
        break;
      case 'pageSize':
        if (!Number.isInteger(v) || (v as number) < 1 || (v as number) > 10_000)
          throw new TypeError('pageSize must be an integer 1-10000');
        out.pageSize = v as number;
        break;
      case 'maxMediaBytes':
        if (!Number.isInteger(v) || (v as number) < 1)
          throw new TypeError('maxMediaBytes must be an integer >= 1');
        out.maxMediaBytes = v as number;
        break;
      case 'tokenTtl':
        if (!Number.isInteger(v) || (v as number) < 1)
          throw new TypeError('tokenTtl must be an integer >= 1 (seconds)');
        out.tokenTtl = v as number;
        break;
      case 'dateStyle':
        if (!DATE_STYLES.includes(v as DateStyle))
          throw new TypeError(`dateStyle must be one of ${DATE_STYLES.join(', ')}`);
        out.dateStyle = v as DateStyle;
        break;
      case 'pagination':
        if (v !== 'cursor' && v !== 'offset')
          throw new TypeError("pagination must be 'cursor' or 'offset'");
        out.pagination = v;
        break;
      case 'coordinateDecimals':
        if (v !== null && (!Number.isInteger(v) || (v as number) < 0 || (v as number) > 12))
          throw new TypeError('coordinateDecimals must be null or an integer 0-12');
        out.coordinateDecimals = v as number | null;
        break;
      case 'rateLimit':
        out.rateLimit = validateRateLimit(v);
        break;
      default:
        throw new TypeError(`unknown config key "${k}"`);
    }
  }
  return out;
}
