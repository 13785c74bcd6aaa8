import type { Core, Modules, UID } from '@strapi/strapi';
import type { SchemaModel } from '../../mapping/types';

/**
 * The boundary between the plugin's run-time uids and Strapi's types. Strapi types uids as the
 * literal union of the app's generated registry; the plugin learns them at run time (from its
 * mappings), so a uid is only asserted to be one here, once, instead of `as any` at every call.
 */
export const contentTypeUid = (uid: string) => uid as UID.ContentType;

/**
 * `strapi.getModel(uid)` as the plugin reads it: only the keys it uses, and `undefined` for a uid
 * Strapi does not know (which its type does not admit, but which happens at run time).
 */
export const modelOf = (strapi: Core.Strapi, uid: string): SchemaModel | undefined =>
  strapi.getModel(uid as UID.Schema);

/** A database row or a document as read: its values are checked or converted where they are used. */
export type Row = Record<string, unknown>;

/**
 * The Document Service of a run-time uid, its answers read as plain rows. The params the plugin
 * builds (populate from its mappings) are checked by Strapi when it runs the query; its static
 * types, made for an app's generated uids, cannot, so they are asserted once here.
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
