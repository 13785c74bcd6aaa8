import type { Core } from '@strapi/strapi';
import { REF_UID, STATE_UID, tableInfo } from '../shared/tables';
import type { EntryKey, SyncStatus } from '../shared/types';
import type { ResourceKind } from '../../remote/types';

export interface StateRecord extends EntryKey {
  id?: number;
  resource: ResourceKind;
  remoteId: number | null;
  payloadHash: string | null;
  status: SyncStatus;
  attempts: number;
  lastError: string | null;
  lastErrorAt: Date | null;
  lastSyncedAt: Date | null;
  mediaUrl: string | null;
  members: number[] | null;
  /**
   * related entries the last payload used, with the role they played (category, pinpoint, member, list);
   * while the entry waits for some of them to reach the remote, those are marked `blocking`
   */
  refs: Array<EntryKey & { role?: string; blocking?: boolean }> | null;
  membershipErrors: unknown[] | null;
  createStartedAt: Date | null;
  createFingerprint: Record<string, unknown> | null;
  /** the documented fields of the last payload the remote accepted: what a drift check compares with */
  pushedFields?: Record<string, unknown> | null;
  /** when the state row was last written (read only) */
  updatedAt?: Date | null;
}

const jsonOut = (v: unknown) => (v == null ? null : JSON.stringify(v));
/** A JSON column this file wrote (jsonOut): read back as the type it was written as. */
const jsonIn = <T>(v: unknown): T | null => {
  if (v == null) return null;
  if (typeof v === 'string') {
    try {
      return JSON.parse(v) as T;
    } catch {
      return null;
    }
  }
  // Some drivers (PostgreSQL's jsonb) give the value already parsed.
  return v as T;
};
const dateIn = (v: unknown) => (v == null ? null : new Date(v as string | number | Date));

/** The state table as records: names of tables and columns as Strapi made them, rows in and out. */
export function createStateRows(strapi: Core.Strapi) {
  const info = () => tableInfo(strapi, STATE_UID);
  const refInfo = () => tableInfo(strapi, REF_UID);
  const knex = (): Core.Strapi['db']['connection'] => strapi.db.connection;

  /** A row as the database gives it: the columns are the plugin's own, written by toRow. */
  const fromRow = (r: Record<string, unknown>): StateRecord => {
    const { col } = info();
    const text = (attr: string) => (r[col(attr)] as string | null | undefined) ?? null;
    return {
      id: r.id as number,
      contentType: r[col('contentType')] as string,
      documentId: r[col('entryDocumentId')] as string,
      locale: text('entryLocale') ?? '',
      resource: r[col('resource')] as ResourceKind,
      remoteId: r[col('remoteId')] == null ? null : Number(r[col('remoteId')]),
      payloadHash: text('payloadHash'),
      status: r[col('status')] as SyncStatus,
      attempts: Number(r[col('attempts')] ?? 0),
      lastError: text('lastError'),
      lastErrorAt: dateIn(r[col('lastErrorAt')]),
      lastSyncedAt: dateIn(r[col('lastSyncedAt')]),
      mediaUrl: text('mediaUrl'),
      members: jsonIn(r[col('members')]),
      refs: jsonIn(r[col('refs')]),
      membershipErrors: jsonIn(r[col('membershipErrors')]),
      createStartedAt: dateIn(r[col('createStartedAt')]),
      createFingerprint: jsonIn(r[col('createFingerprint')]),
      pushedFields: jsonIn(r[col('pushedFields')]),
      updatedAt: dateIn(r[col('updatedAt')]),
    };
  };

  const toRow = (s: Partial<StateRecord>) => {
    const { col } = info();
    const row: Record<string, unknown> = {};
    const set = (k: keyof StateRecord, v: unknown) => {
      if (k in s)
        row[
          col(
            k === 'documentId' ? 'entryDocumentId' : k === 'locale' ? 'entryLocale' : (k as string)
          )
        ] = v;
    };
    set('contentType', s.contentType);
    set('documentId', s.documentId);
    set('locale', s.locale);
    set('resource', s.resource);
    set('remoteId', s.remoteId);
    set('payloadHash', s.payloadHash);
    set('status', s.status);
    set('attempts', s.attempts);
    set('lastError', s.lastError);
    set('lastErrorAt', s.lastErrorAt);
    set('lastSyncedAt', s.lastSyncedAt);
    set('mediaUrl', s.mediaUrl);
    set('members', jsonOut(s.members));
    set('membershipErrors', jsonOut(s.membershipErrors));
    set('createStartedAt', s.createStartedAt);
    set('createFingerprint', jsonOut(s.createFingerprint));
    set('pushedFields', jsonOut(s.pushedFields));
    if ('refs' in s) row[col('refs')] = jsonOut(s.refs);
    return row;
  };

  const whereKey = (key: EntryKey) => {
    const { col } = info();
    return {
      [col('contentType')]: key.contentType,
      [col('entryDocumentId')]: key.documentId,
      [col('entryLocale')]: key.locale,
    };
  };

  return { strapi, info, refInfo, knex, fromRow, toRow, whereKey };
}

export type StateRows = ReturnType<typeof createStateRows>;
