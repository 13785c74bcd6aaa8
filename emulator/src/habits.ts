/**
 * What a remote may keep of what it is sent, where the contract is silent: coordinates stored
 * with fewer decimals. Off by default (values are kept as sent).
 */
import type { EmulatorConfig } from './types';

type Fields = Record<string, unknown>;

export function asStored(kind: string, fields: Fields, cfg: EmulatorConfig): Fields {
  const decimals = cfg.coordinateDecimals;
  if (kind !== 'pinpoints' || decimals == null) return fields;
  const out = { ...fields };
  const factor = 10 ** decimals;
  for (const k of ['latitude', 'longitude']) {
    if (typeof out[k] === 'number') out[k] = Math.round((out[k] as number) * factor) / factor;
  }
  return out;
}
