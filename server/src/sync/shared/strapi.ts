import type { Core, Modules, UID } from '@strapi/strapi';
import type { SchemaModel } from '../../mapping/types';

/**
 * The boundary between the plugin's run-time uids (from its mappings) and Strapi's types, a literal
 * union of the app's generated registry: a uid is asserted here once, not `as any` at every call.
 */
export const contentTypeUid = (uid: string) => uid as UID.ContentType;

/** `strapi.getModel(uid)` as the plugin reads it: `undefined` for a uid Strapi does not know (its type says never). */
export const modelOf = (strapi: Core.Strapi, uid: string): SchemaModel | undefined =>
  strapi.getModel(uid as UID.Schema);

/** A database row or a document as read: its values are checked or converted where they are used. */
export type Row = Record<string, unknown>;

/**
 * The Document Service of a run-time uid, its answers read as plain rows: the params the plugin
 * builds are checked by Strapi at run time, which its static types cannot, so they are asserted.
 */
export const documentsOf = (strapi: Core.Strapi, uid: string) => {
  const service = strapi.documents(contentTypeUid(uid));
  return {
    findMany: (params: Record<string, unknown>) =>
      service.findMany(params as Modules.Documents.ServiceParams['findMany']) as Promise<Row[]>,
    findOne: (params: Record<string, unknown>) =>
      service.findOne(params as Modules.Documents.ServiceParams['findOne']) as Promise<Row | null>,
  };
};
