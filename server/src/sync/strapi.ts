import type { Core, UID } from '@strapi/strapi';
import type { SchemaModel } from '../mapping/types';

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
