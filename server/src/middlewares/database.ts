import type { Core } from '@strapi/strapi';
import { errors } from '@strapi/utils';
import { PLUGIN_ID } from '../permissions';
import { reasonOf } from '../sync/shared/db-error';

const PING_TIMEOUT_MS = 3_000;

/**
 * The reason as an answer may carry it: while the database is down no one can be authenticated,
 * so it goes to anyone who asks and names no server address, host or quoted name.
 */
export const publicReason = (reason: string): string =>
  reason
    .replace(/\b(getaddrinfo [A-Z_]+) \S+/g, '$1 <host>')
    .replace(/\[?[0-9a-f]*:[0-9a-f:]+\]?:\d+\b/gi, '<address>')
    .replace(/\b(?:\d{1,3}\.){3}\d{1,3}(?::\d+)?\b/g, '<address>')
    .replace(/"[^"]*"/g, '"…"');

/** The plugin's answer when the database itself does not answer: a sentence, never a statement. */
export class DatabaseUnavailableError extends errors.ApplicationError<
  'DatabaseUnavailableError',
  string,
  { reason: string }
> {
  constructor(raw: string) {
    const reason = publicReason(raw);
    super(
      `The database does not answer (${reason}): the sync's state cannot be read or written until it is back. Nothing recorded is lost.`,
      { reason }
    );
    this.name = 'DatabaseUnavailableError';
  }
}

/** Why the database does not answer a trivial query within a few seconds, or null when it does. */
export async function databaseDown(strapi: Core.Strapi): Promise<string | null> {
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      strapi.db.connection.raw('select 1'),
      new Promise((_, reject) => {
        timer = setTimeout(
          () => reject(new Error(`no answer within ${PING_TIMEOUT_MS / 1000} s`)),
          PING_TIMEOUT_MS
        );
      }),
    ]);
    return null;
  } catch (err) {
    return reasonOf(err);
  } finally {
    clearTimeout(timer);
  }
}

/** `err` as a DatabaseUnavailableError when the database is what failed, else `err` itself. */
export async function explained(strapi: Core.Strapi, err: unknown): Promise<unknown> {
  // Strapi's own errors (a ValidationError, this one) were thrown on purpose: no need to ask the database.
  if (err instanceof errors.ApplicationError) return err;
  const down = await databaseDown(strapi);
  return down ? new DatabaseUnavailableError(down) : err;
}

type Ctx = { path: string; status: number; body: unknown };
type Next = () => Promise<unknown>;

/**
 * On each route of the plugin: a failure of the database becomes a DatabaseUnavailableError, which
 * Strapi answers with its sentence instead of logging the statement and its values as a 500.
 */
export const database: Core.MiddlewareFactory =
  (_config, { strapi }) =>
  (_ctx, next) =>
    next().catch(async (err: unknown) => {
      throw await explained(strapi, err);
    });

const unavailable = (ctx: Ctx, err: DatabaseUnavailableError) => {
  ctx.status = 503;
  ctx.body = {
    data: null,
    error: { status: 503, name: err.name, message: err.message, details: err.details },
  };
};

/**
 * 503 with a sentence while the database is down; outermost: Strapi's authentication fails first.
 * Once down, each request asks the database first: no 500 logged per dashboard poll until it is up.
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
    const answered = ctx.body as { error?: { name?: unknown; status: number } } | null | undefined;
    if (answered?.error?.name === 'DatabaseUnavailableError') {
      ctx.status = 503;
      answered.error.status = 503;
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
