/** A token bucket per client: `burst` requests at once, refilled at `rate` per second. */
import type { Clock } from './clock';
import { EmulatorApiError } from './http';
import type { RateLimitConfig } from './types';

interface Bucket {
  tokens: number;
  at: number;
}

export class RateLimiter {
  private readonly buckets = new Map<string, Bucket>();

  constructor(private readonly clock: Clock) {}

  /** Take one token for `key`, or throw the 429 answer with Retry-After. */
  take(key: string, cfg: RateLimitConfig): void {
    const now = this.clock.now();
    let b = this.buckets.get(key);
    if (!b) {
      b = { tokens: cfg.burst, at: now };
      this.buckets.set(key, b);
    } else {
      b.tokens = Math.min(cfg.burst, b.tokens + ((now - b.at) / 1000) * cfg.rate);
      b.at = now;
    }
    if (b.tokens >= 1) {
      b.tokens -= 1;
      return;
    }
    const waitSeconds = Math.max(1, Math.ceil((1 - b.tokens) / cfg.rate));
    throw new EmulatorApiError(
      429,
      { detail: `Request was throttled. Expected available in ${waitSeconds} seconds.` },
      { 'retry-after': String(waitSeconds) }
    );
  }

  clear(): void {
    this.buckets.clear();
  }
}

export function validateRateLimit(v: unknown): RateLimitConfig | null {
  if (v === null || v === undefined || v === false) return null;
  if (typeof v !== 'object')
    throw new TypeError('rateLimit must be an object {rate, burst} or null');
  const { rate, burst, includeTokenRequests } = v as Record<string, unknown>;
  if (typeof rate !== 'number' || !Number.isFinite(rate) || rate <= 0)
    throw new TypeError('rateLimit.rate must be a number > 0');
  const b = burst === undefined ? Math.max(1, Math.ceil(rate)) : burst;
  if (typeof b !== 'number' || !Number.isFinite(b) || b < 1)
    throw new TypeError('rateLimit.burst must be a number >= 1');
  if (includeTokenRequests !== undefined && typeof includeTokenRequests !== 'boolean') {
    throw new TypeError('rateLimit.includeTokenRequests must be a boolean');
  }
  return { rate, burst: b, includeTokenRequests: includeTokenRequests === true };
}
