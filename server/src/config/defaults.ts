import type { PluginConfig } from './types';

export const defaults: PluginConfig = {
  rateLimit: { requestsPerSecond: 10, concurrency: 4 },
  mappings: [],
  requestTimeoutMs: 30_000,
  maxMediaBytes: 10 * 1024 * 1024,
  syncEnabled: true,
  batchSize: 100,
  leaseMs: 60_000,
  retry: { baseMs: 1_000, maxMs: 15 * 60_000, maxAttempts: 12 },
  coalesce: { settleMs: 300, maxWaitMs: 5_000 },
  reconcile: null,
  walkOnLink: true,
  sqliteOptimize: false,
};
