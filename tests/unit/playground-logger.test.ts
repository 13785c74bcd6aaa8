/**
 * The playground's (and so the demo's) console shows every level from STRAPI_LOG_LEVEL up:
 * a filter on one level alone once hid every warning and error of `npm run demo`.
 */
import { winston } from '@strapi/logger';

const loggerConfig = require('../../playground/config/logger.js') as (strapi: {
  env: (key: string, fallback?: string) => string | undefined;
}) => { transports: winston.transport[] };

/** The levels that reach the console when Strapi logs one line at each level. */
function shown(level?: string) {
  const config = loggerConfig({
    env: (key, fallback) => (key === 'STRAPI_LOG_LEVEL' && level ? level : fallback),
  });
  const reached: string[] = [];
  for (const t of config.transports)
    jest.spyOn(t, 'log').mockImplementation((info: { level: string }, next: () => void) => {
      // prettyPrint colours the level
      // eslint-disable-next-line no-control-regex
      reached.push(info.level.replace(/\x1b\[\d+m/g, ''));
      next();
    });
  // Strapi's own logger lets everything through to the transports (level 'silly' at most).
  const logger = winston.createLogger({ level: 'silly', ...config });
  for (const l of ['error', 'warn', 'info', 'http', 'verbose', 'debug'])
    logger.log(l, `a ${l} line`);
  return reached;
}

test('by default (the demo): errors, warnings and info, not the HTTP lines nor debug', () => {
  expect(shown()).toEqual(['error', 'warn', 'info']);
});

test('the test helpers set STRAPI_LOG_LEVEL=warn: errors and warnings', () => {
  expect(shown('warn')).toEqual(['error', 'warn']);
});
