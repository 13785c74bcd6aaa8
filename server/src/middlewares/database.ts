import type { Core } from '@strapi/strapi';
import { PLUGIN_ID } from '../permissions';
import { DatabaseUnavailableError, databaseDown, explained } from '../utils/database';

type Ctx = { path: string; status: number; body: unknown };
type Next = () => Promise<unknown>;

/**
 * On each route of the plugin: a failure of the database becomes a DatabaseUnavailableError, which
 * Strapi answers with its sentence instead of logging the statement and its values as a 500.
 */
export const database: Core.MiddlewareFactory =
  (_config, { strapi }) =>
  async (ctx, next) => {
    try {
      await next();
    } catch (err) {
      throw await explained(strapi, err);
    }
  };

const unavailable = (ctx: Ctx, err: DatabaseUnavailableError) => {
  ctx.status = 503;
  ctx.body = {
    data: null,
    error: { status: 503, name: err.name, message: err.message, details: err.details },
  };
};

const errorName = (body: unknown) =>
  (body as { error?: { name?: unknown } } | null | undefined)?.error?.name;

/**
 * The plugin's routes answer 503 with a sentence while the database is down. Outermost (added in
 * register()): an admin request fails in Strapi's authentication, which reads the user from the
 * database, before it reaches a route of ours. Once one request found the database down, the next
 * ones ask it first, so Strapi does not log a 500 per dashboard poll until it is back.
 */
export const databaseUnavailable = (strapi: Core.Strapi) => {
  let down = false;
  // The content API's prefix is the app's to choose (config/api `rest.prefix`).
  const apiPrefix = String(strapi.config.get('api.rest.prefix', '/api')).replace(/\/+$/, '');
  const ours = [`/${PLUGIN_ID}/`, `${apiPrefix}/${PLUGIN_ID}/`];
  return async (ctx: Ctx, next: Next) => {
    if (!ours.some((prefix) => ctx.path.startsWith(prefix))) return next();
    if (down) {
      const reason = await databaseDown(strapi);
      if (reason) return unavailable(ctx, new DatabaseUnavailableError(reason));
      down = false;
    }
    await next();
    if (errorName(ctx.body) === 'DatabaseUnavailableError') {
      ctx.status = 503;
      (ctx.body as { error: { status: number } }).error.status = 503;
      down = true;
      return;
    }
    if (ctx.status < 500) return;
    const reason = await databaseDown(strapi);
    if (!reason) return;
    down = true;
    unavailable(ctx, new DatabaseUnavailableError(reason));
  };
};
