import { MappingError } from '../../mapping/errors';
import { RemoteError } from '../../remote/errors';
import { PushRefusedError } from './refusal';

/**
 * Why a statement failed, without the statement or its values: knex puts both in the message
 * ("insert into ... values (...) - <the database's message>"), and values are editors' content.
 */
export const reasonOf = (thrown: unknown): string => {
  // What knex and the database drivers put on their errors (mysql2 adds `sqlMessage`).
  const err = thrown as
    { code?: unknown; sqlMessage?: unknown; message?: unknown } | null | undefined;
  const code = typeof err?.code === 'string' ? err.code : undefined;
  let text = String(err?.sqlMessage ?? err?.message ?? err ?? 'unknown error');
  if (!err?.sqlMessage) {
    const cut = text.lastIndexOf(' - ');
    if (cut >= 0) text = text.slice(cut + 3);
  }
  text = text.replace(/\s+/g, ' ').trim().slice(0, 200);
  return code && !text.includes(code) ? `${code}: ${text}` : text;
};

/** Why something failed: the remote's, the mapping's and a refusal's own words (no statement in them), else reasonOf. */
export const failureOf = (thrown: unknown): string =>
  thrown instanceof RemoteError ||
  thrown instanceof MappingError ||
  thrown instanceof PushRefusedError
    ? thrown.message
    : reasonOf(thrown);
