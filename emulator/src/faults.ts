/**
 * Fault injection: standing probabilistic rules and a one-shot script.
 * The server asks `decide()` once per request (outside /__emulator/) before it handles it.
 */
import type { FaultKind, FaultSpec, FaultsConfig } from './types';

const KINDS: FaultKind[] = [
  'status',
  'latency',
  'reset-before',
  'reset-after',
  'garble-after',
  'revoke-tokens',
  'hold',
  'pass',
];

export interface FaultDecision {
  /** Total delay to add, ms. */
  delayMs: number;
  /** What to do after the delay; null: handle normally. */
  action: FaultSpec | null;
  /** The fault to record in the log ('latency' when only a delay was added). */
  recorded: FaultKind | null;
}

/** mulberry32: a tiny seeded PRNG so that runs with a seed are repeatable. */
function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function validateFault(f: unknown, where: string): FaultSpec {
  if (!f || typeof f !== 'object' || Array.isArray(f))
    throw new TypeError(`${where}: a fault must be an object`);
  const s = f as Record<string, unknown>;
  if (!KINDS.includes(s.kind as FaultKind))
    throw new TypeError(`${where}.kind must be one of ${KINDS.join(', ')}`);
  const out: FaultSpec = { kind: s.kind as FaultKind };
  if (s.status !== undefined) {
    if (!Number.isInteger(s.status) || (s.status as number) < 400 || (s.status as number) > 599) {
      throw new TypeError(`${where}.status must be an integer 400-599`);
    }
    out.status = s.status as number;
  }
  if (s.body !== undefined) {
    if (typeof s.body !== 'string' && (typeof s.body !== 'object' || s.body === null)) {
      throw new TypeError(`${where}.body must be a string or a JSON object/array`);
    }
    out.body = s.body as FaultSpec['body'];
  }
  if (s.retryAfter !== undefined) {
    if (!Number.isInteger(s.retryAfter) || (s.retryAfter as number) < 0)
      throw new TypeError(`${where}.retryAfter must be an integer >= 0`);
    out.retryAfter = s.retryAfter as number;
  }
  if (s.latencyMs !== undefined) {
    const l = s.latencyMs;
    const ok = (n: unknown): boolean =>
      typeof n === 'number' && Number.isFinite(n) && n >= 0 && n <= 600_000;
    if (Array.isArray(l)) {
      if (l.length !== 2 || !ok(l[0]) || !ok(l[1]) || (l[0] as number) > (l[1] as number)) {
        throw new TypeError(
          `${where}.latencyMs range must be [min, max] with 0 <= min <= max <= 600000`
        );
      }
      out.latencyMs = [l[0] as number, l[1] as number];
    } else if (ok(l)) {
      out.latencyMs = l as number;
    } else {
      throw new TypeError(`${where}.latencyMs must be ms (0-600000) or [min, max]`);
    }
  }
  if (out.kind === 'latency' && out.latencyMs === undefined)
    throw new TypeError(`${where}: kind 'latency' needs latencyMs`);
  if (s.method !== undefined) {
    const m = s.method;
    if (typeof m === 'string') out.method = m.toUpperCase();
    else if (Array.isArray(m) && m.every((x) => typeof x === 'string'))
      out.method = m.map((x: string) => x.toUpperCase());
    else throw new TypeError(`${where}.method must be a string or an array of strings`);
  }
  if (s.pathPrefix !== undefined) {
    if (typeof s.pathPrefix !== 'string' || !s.pathPrefix.startsWith('/'))
      throw new TypeError(`${where}.pathPrefix must start with /`);
    out.pathPrefix = s.pathPrefix;
  }
  if (s.probability !== undefined) {
    if (typeof s.probability !== 'number' || !(s.probability >= 0 && s.probability <= 1)) {
      throw new TypeError(`${where}.probability must be in [0, 1]`);
    }
    out.probability = s.probability;
  }
  return out;
}

export function validateFaults(v: unknown): FaultsConfig {
  if (v === null || v === undefined) return {};
  if (typeof v !== 'object' || Array.isArray(v))
    throw new TypeError('faults must be an object {rules?, script?, seed?}');
  const o = v as Record<string, unknown>;
  for (const k of Object.keys(o))
    if (!['rules', 'script', 'seed'].includes(k))
      throw new TypeError(`faults.${k} is not an option`);
  const list = (x: unknown, name: string): FaultSpec[] => {
    if (x === undefined) return [];
    if (!Array.isArray(x)) throw new TypeError(`faults.${name} must be an array`);
    return x.map((f, i) => validateFault(f, `faults.${name}[${i}]`));
  };
  const out: FaultsConfig = { rules: list(o.rules, 'rules'), script: list(o.script, 'script') };
  if (o.seed !== undefined) {
    if (!Number.isInteger(o.seed)) throw new TypeError('faults.seed must be an integer');
    out.seed = o.seed as number;
  }
  return out;
}

function matches(f: FaultSpec, method: string, path: string): boolean {
  if (f.method !== undefined) {
    if (Array.isArray(f.method) ? !f.method.includes(method) : f.method !== method) return false;
  }
  return f.pathPrefix === undefined || path.startsWith(f.pathPrefix);
}

export class FaultEngine {
  private rules: FaultSpec[] = [];
  private script: FaultSpec[] = [];
  private seed: number | undefined;
  private random: () => number = Math.random;

  set(cfg: FaultsConfig | null): void {
    const v = validateFaults(cfg);
    this.rules = v.rules ?? [];
    this.script = v.script ?? [];
    this.seed = v.seed;
    this.random = v.seed === undefined ? Math.random : seeded(v.seed);
  }

  append(entries: unknown): void {
    if (!Array.isArray(entries)) throw new TypeError('script entries must be an array');
    const v = entries.map((f, i) => validateFault(f, `script[${i}]`));
    this.script.push(...v);
  }

  get(): FaultsConfig {
    const out: FaultsConfig = {
      rules: structuredClone(this.rules),
      script: structuredClone(this.script),
    };
    if (this.seed !== undefined) out.seed = this.seed;
    return out;
  }

  get active(): boolean {
    return this.rules.length > 0 || this.script.length > 0;
  }

  private delay(f: FaultSpec): number {
    const l = f.latencyMs;
    if (l === undefined) return 0;
    if (typeof l === 'number') return l;
    return l[0] + this.random() * (l[1] - l[0]);
  }

  decide(method: string, path: string): FaultDecision {
    let delayMs = 0;
    let action: FaultSpec | null = null;
    let recorded: FaultKind | null = null;
    const idx = this.script.findIndex((f) => matches(f, method, path));
    if (idx !== -1) {
      const f = this.script.splice(idx, 1)[0]!;
      delayMs += this.delay(f);
      if (f.kind !== 'pass' && f.kind !== 'latency') action = f;
      if (f.kind !== 'pass') recorded = f.kind;
    }
    for (const r of this.rules) {
      if (!matches(r, method, path)) continue;
      if (r.probability !== undefined && r.probability < 1 && this.random() >= r.probability)
        continue;
      delayMs += this.delay(r);
      if (r.kind === 'pass') continue;
      if (r.kind !== 'latency' && action === null) action = r;
      if (recorded === null || recorded === 'latency') recorded = r.kind;
    }
    return { delayMs, action, recorded };
  }
}
