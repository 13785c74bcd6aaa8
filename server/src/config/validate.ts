import { RESOURCES } from '../../../shared/contracts/remote';
import type { PluginConfig } from './types';
import { viewUrlProblems } from './view-url';

function alertsProblems(a: unknown, at: string): string[] {
  if (a === undefined) return [];
  if (!isPlainObject(a))
    return [`${at} must be an object { email?, webhook?, stuckMinutes, intervalMinutes }`];
  const problems: string[] = [];
  if (
    a.email !== undefined &&
    (!Array.isArray(a.email) ||
      !a.email.every((e) => typeof e === 'string' && /^[^@\s]+@[^@\s]+$/.test(e)))
  )
    problems.push(`${at}.email must be a list of e-mail addresses, got ${JSON.stringify(a.email)}`);
  if (
    a.webhook !== undefined &&
    (typeof a.webhook !== 'string' || !/^https?:\/\/[^/]/.test(a.webhook))
  )
    problems.push(`${at}.webhook must be an http(s) URL, got ${JSON.stringify(a.webhook)}`);
  for (const k of ['stuckMinutes', 'intervalMinutes'] as const) {
    if (a[k] !== undefined && !positive(a[k]))
      problems.push(`${at}.${k} must be a number above 0, got ${JSON.stringify(a[k])}`);
  }
  return problems;
}

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

const positive = (v: unknown) => typeof v === 'number' && Number.isFinite(v) && v > 0;

/**
 * Shape checks that need no Strapi: run by Strapi when it loads config/plugins.
 * Checks against the content models (fields exist, relations point at mapped types)
 * happen in register(), where the models are known.
 */
export function configShapeProblems(config: Partial<PluginConfig>): string[] {
  const problems: string[] = [];
  const key = (k: string) => `location-content.config.${k}`;

  if (config.baseUrl !== undefined && config.baseUrl !== null && config.baseUrl !== '') {
    if (typeof config.baseUrl !== 'string') problems.push(`${key('baseUrl')} must be a string URL`);
    else {
      try {
        const url = new URL(config.baseUrl);
        if (!/^https?:$/.test(url.protocol))
          problems.push(`${key('baseUrl')} must be an http(s) URL, got ${url.protocol}`);
      } catch {
        problems.push(`${key('baseUrl')} is not a valid URL: '${config.baseUrl}'`);
      }
    }
  }
  for (const k of ['clientId', 'clientSecret'] as const) {
    const v = config[k];
    if (v !== undefined && v !== null && typeof v !== 'string')
      problems.push(`${key(k)} must be a string`);
  }

  if (!isPlainObject(config.rateLimit))
    problems.push(`${key('rateLimit')} must be an object { requestsPerSecond, concurrency }`);
  else {
    if (!positive(config.rateLimit.requestsPerSecond))
      problems.push(
        `${key('rateLimit.requestsPerSecond')} must be a number above 0, got ${JSON.stringify(config.rateLimit.requestsPerSecond)}`
      );
    if (!Number.isInteger(config.rateLimit.concurrency) || config.rateLimit.concurrency < 1)
      problems.push(
        `${key('rateLimit.concurrency')} must be an integer of at least 1, got ${JSON.stringify(config.rateLimit.concurrency)}`
      );
  }
  for (const k of ['requestTimeoutMs', 'maxMediaBytes', 'batchSize', 'leaseMs'] as const) {
    if (!positive(config[k]))
      problems.push(`${key(k)} must be a number above 0, got ${JSON.stringify(config[k])}`);
  }
  if (typeof config.syncEnabled !== 'boolean')
    problems.push(`${key('syncEnabled')} must be true or false`);
  if (config.walkOnLink !== undefined && typeof config.walkOnLink !== 'boolean')
    problems.push(`${key('walkOnLink')} must be true or false`);
  if (config.sqliteOptimize !== undefined && typeof config.sqliteOptimize !== 'boolean')
    problems.push(`${key('sqliteOptimize')} must be true or false`);
  if (
    config.pushIn !== undefined &&
    (!Array.isArray(config.pushIn) ||
      config.pushIn.length === 0 ||
      !config.pushIn.every((e) => typeof e === 'string' && e.trim() !== ''))
  )
    problems.push(
      `${key('pushIn')} must be a non-empty list of environment names such as ['production'], got ${JSON.stringify(config.pushIn)}`
    );
  if (
    !isPlainObject(config.retry) ||
    !positive(config.retry.baseMs) ||
    !positive(config.retry.maxMs) ||
    !positive(config.retry.maxAttempts)
  )
    problems.push(`${key('retry')} must be { baseMs, maxMs, maxAttempts }, all above 0`);
  if (
    config.coalesce !== undefined &&
    (!isPlainObject(config.coalesce) ||
      typeof config.coalesce.settleMs !== 'number' ||
      !(config.coalesce.settleMs >= 0) ||
      typeof config.coalesce.maxWaitMs !== 'number' ||
      !(config.coalesce.maxWaitMs >= 0))
  )
    problems.push(`${key('coalesce')} must be { settleMs, maxWaitMs }, both 0 or more`);

  if (config.reconcile != null) {
    const r = config.reconcile as unknown;
    if (!isPlainObject(r))
      problems.push(`${key('reconcile')} must be { cron, repair } or null (off)`);
    else {
      // 5 fields, or 6 with seconds first, as Strapi's cron takes them.
      const fields = typeof r.cron === 'string' ? r.cron.trim().split(/\s+/).length : 0;
      if (fields !== 5 && fields !== 6)
        problems.push(
          `${key('reconcile.cron')} must be a cron rule such as '0 3 * * *', got ${JSON.stringify(r.cron)}`
        );
      if (!['none', 'missing', 'all'].includes(r.repair as string))
        problems.push(
          `${key('reconcile.repair')} must be 'none', 'missing' or 'all', got ${JSON.stringify(r.repair)}`
        );
    }
  }
  problems.push(...viewUrlProblems(config.viewUrl, key('viewUrl')));
  problems.push(...alertsProblems(config.alerts, key('alerts')));

  if (!Array.isArray(config.mappings)) {
    problems.push(`${key('mappings')} must be an array`);
    return problems;
  }
  const seen = new Map<string, number>();
  config.mappings.forEach((m: unknown, i) => {
    const at = key(`mappings[${i}]`);
    if (!isPlainObject(m))
      return problems.push(`${at} must be an object { contentType, resource, fields }`);
    if (typeof m.contentType !== 'string' || !m.contentType.includes('::'))
      problems.push(
        `${at}.contentType must be a content type uid such as 'api::place.place', got ${JSON.stringify(m.contentType)}`
      );
    else if (seen.has(m.contentType))
      problems.push(
        `${at}.contentType '${m.contentType}' is already mapped by mappings[${seen.get(m.contentType)}]: one mapping per content type`
      );
    else seen.set(m.contentType, i);
    if (!(RESOURCES as readonly unknown[]).includes(m.resource))
      problems.push(
        `${at}.resource must be one of ${RESOURCES.join(', ')}, got ${JSON.stringify(m.resource)}`
      );
    if (!isPlainObject(m.fields))
      problems.push(`${at}.fields must be an object mapping remote fields to entry paths`);
    if (m.transform !== undefined && typeof m.transform !== 'function')
      problems.push(`${at}.transform must be a function`);
    if (m.inverse !== undefined && typeof m.inverse !== 'function')
      problems.push(`${at}.inverse must be a function`);
  });
  return problems;
}
