import { RESOURCES } from '../../../shared/contracts/remote';
import type { PluginConfig } from './types';

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

const positive = (v: unknown) => typeof v === 'number' && Number.isFinite(v) && v > 0;

const nonNegative = (v: unknown) => typeof v === 'number' && v >= 0;

const got = (v: unknown) => `, got ${JSON.stringify(v)}`;

const HTTP_URL = /^https?:\/\/[^/]/;

/** Shape checks run when Strapi loads config/plugins; checks against the models come at boot. */
export function configShapeProblems(config: Partial<PluginConfig>): string[] {
  const problems: string[] = [];
  const key = (k: string) => `location-content.config.${k}`;
  const check = (ok: unknown, k: string, problem: string) => {
    if (!ok) problems.push(`${key(k)}${problem}`);
  };

  const { baseUrl, rateLimit, retry, coalesce, pushIn, alerts, viewUrl } = config;
  if (baseUrl !== undefined && baseUrl !== null && baseUrl !== '') {
    const url = typeof baseUrl === 'string' ? URL.parse(baseUrl) : null;
    if (typeof baseUrl !== 'string') problems.push(`${key('baseUrl')} must be a string URL`);
    else if (!url) problems.push(`${key('baseUrl')} is not a valid URL: '${baseUrl}'`);
    else if (!/^https?:$/.test(url.protocol))
      problems.push(`${key('baseUrl')} must be an http(s) URL, got ${url.protocol}`);
  }
  for (const k of ['clientId', 'clientSecret'] as const)
    check(config[k] == null || typeof config[k] === 'string', k, ' must be a string');

  if (!isPlainObject(rateLimit))
    problems.push(`${key('rateLimit')} must be an object { requestsPerSecond, concurrency }`);
  else {
    const { requestsPerSecond: rps, concurrency } = rateLimit;
    check(positive(rps), 'rateLimit.requestsPerSecond', ` must be a number above 0${got(rps)}`);
    check(
      Number.isInteger(concurrency) && concurrency >= 1,
      'rateLimit.concurrency',
      ` must be an integer of at least 1${got(concurrency)}`
    );
  }
  for (const k of ['requestTimeoutMs', 'maxMediaBytes', 'batchSize', 'leaseMs'] as const)
    check(positive(config[k]), k, ` must be a number above 0${got(config[k])}`);
  check(typeof config.syncEnabled === 'boolean', 'syncEnabled', ' must be true or false');
  for (const k of ['walkOnLink', 'sqliteOptimize'] as const)
    check(config[k] === undefined || typeof config[k] === 'boolean', k, ' must be true or false');
  check(
    pushIn === undefined ||
      (Array.isArray(pushIn) &&
        pushIn.length > 0 &&
        pushIn.every((e) => typeof e === 'string' && e.trim() !== '')),
    'pushIn',
    ` must be a non-empty list of environment names such as ['production']${got(pushIn)}`
  );
  check(
    isPlainObject(retry) && [retry.baseMs, retry.maxMs, retry.maxAttempts].every(positive),
    'retry',
    ' must be { baseMs, maxMs, maxAttempts }, all above 0'
  );
  check(
    coalesce === undefined ||
      (isPlainObject(coalesce) && [coalesce.settleMs, coalesce.maxWaitMs].every(nonNegative)),
    'coalesce',
    ' must be { settleMs, maxWaitMs }, both 0 or more'
  );

  const reconcile = config.reconcile as unknown;
  if (reconcile != null && !isPlainObject(reconcile))
    problems.push(`${key('reconcile')} must be { cron, repair } or null (off)`);
  else if (reconcile != null) {
    // 5 fields, or 6 with seconds first, as Strapi's cron takes them.
    const { cron, repair } = reconcile;
    const fields = typeof cron === 'string' ? cron.trim().split(/\s+/).length : 0;
    check(
      fields === 5 || fields === 6,
      'reconcile.cron',
      ` must be a cron rule such as '0 3 * * *'${got(cron)}`
    );
    check(
      ['none', 'missing', 'all'].includes(repair as string),
      'reconcile.repair',
      ` must be 'none', 'missing' or 'all'${got(repair)}`
    );
  }

  if (viewUrl !== undefined && !isPlainObject(viewUrl))
    problems.push(
      `${key('viewUrl')} must be an object such as { pinpoint: 'https://livemap.getwemap.com/#/pinpoints/{id}' }`
    );
  for (const [resource, template] of Object.entries(isPlainObject(viewUrl) ? viewUrl : {})) {
    const at = `viewUrl.${resource}`;
    if (!(RESOURCES as readonly string[]).includes(resource))
      problems.push(`${key(at)}: ${resource} is not a resource (${RESOURCES.join(', ')})`);
    else if (typeof template !== 'string' || !template.includes('{id}'))
      problems.push(`${key(at)} must be a URL template holding {id}${got(template)}`);
    else check(HTTP_URL.test(template), at, ` must be an http(s) URL${got(template)}`);
  }

  if (alerts !== undefined && !isPlainObject(alerts))
    problems.push(
      `${key('alerts')} must be an object { email?, webhook?, stuckMinutes, intervalMinutes }`
    );
  else if (alerts !== undefined) {
    const { email, webhook, stuckMinutes, intervalMinutes } = alerts as Record<string, unknown>;
    check(
      email === undefined ||
        (Array.isArray(email) &&
          email.every((e) => typeof e === 'string' && /^[^@\s]+@[^@\s]+$/.test(e))),
      'alerts.email',
      ` must be a list of e-mail addresses${got(email)}`
    );
    check(
      webhook === undefined || (typeof webhook === 'string' && HTTP_URL.test(webhook)),
      'alerts.webhook',
      ` must be an http(s) URL${got(webhook)}`
    );
    for (const [k, v] of Object.entries({ stuckMinutes, intervalMinutes }))
      check(v === undefined || positive(v), `alerts.${k}`, ` must be a number above 0${got(v)}`);
  }

  if (!Array.isArray(config.mappings)) {
    problems.push(`${key('mappings')} must be an array`);
    return problems;
  }
  const seen = new Map<string, number>();
  config.mappings.forEach((m: unknown, i) => {
    const at = `mappings[${i}]`;
    if (!isPlainObject(m))
      return problems.push(`${key(at)} must be an object { contentType, resource, fields }`);
    if (typeof m.contentType !== 'string' || !m.contentType.includes('::'))
      problems.push(
        `${key(at)}.contentType must be a content type uid such as 'api::place.place'${got(m.contentType)}`
      );
    else if (seen.has(m.contentType))
      problems.push(
        `${key(at)}.contentType '${m.contentType}' is already mapped by mappings[${seen.get(m.contentType)}]: one mapping per content type`
      );
    else seen.set(m.contentType, i);
    check(
      (RESOURCES as readonly unknown[]).includes(m.resource),
      `${at}.resource`,
      ` must be one of ${RESOURCES.join(', ')}${got(m.resource)}`
    );
    check(
      isPlainObject(m.fields),
      `${at}.fields`,
      ' must be an object mapping remote fields to entry paths'
    );
    for (const f of ['transform', 'inverse'] as const)
      check(m[f] === undefined || typeof m[f] === 'function', `${at}.${f}`, ' must be a function');
  });
  return problems;
}
