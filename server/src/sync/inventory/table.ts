import type { Core } from '@strapi/strapi';
import type { ResourceKind } from '../../remote/types';
import {
  ensureIndex,
  INVENTORY_MEMBER_UID,
  INVENTORY_UID,
  newRow,
  STATE_UID,
  tableInfo,
} from '../shared/tables';
import type { RemoteIdentity } from './identity';
import { insertRows } from '../shared/dialect';

export interface InventoryRow extends RemoteIdentity {
  resource: ResourceKind;
  remoteId: number;
  seenAt: number;
}

/** a row as knex answers it: columns by their database names */
type Row = Record<string, unknown>;

const str = (v: unknown) => (v == null ? null : String(v));
const num = (v: unknown) => (v == null ? null : Number(v));

/**
 * The inventory tables: one row per remote object and per list membership, written a page at a
 * time (upserts keyed by resource and remote id), so a walk of any size holds one page in memory.
 */
export function createInventoryTable(strapi: Core.Strapi) {
  const knex = () => strapi.db.connection;
  const objects = () => tableInfo(strapi, INVENTORY_UID);
  const members = () => tableInfo(strapi, INVENTORY_MEMBER_UID);

  const ensureIndexes = async () => {
    const o = objects();
    await ensureIndex(strapi, o.table, 'remote_uq', [o.col('resource'), o.col('remoteId')], {
      unique: true,
    });
    await ensureIndex(strapi, o.table, 'name_idx', [o.col('resource'), o.col('nameKey')]);
    const m = members();
    await ensureIndex(strapi, m.table, 'member_uq', [m.col('listId'), m.col('pinpointId')], {
      unique: true,
    });
  };

  const toRow = (r: Row): InventoryRow => {
    const { col } = objects();
    const fields = r[col('fields')];
    return {
      resource: r[col('resource')] as ResourceKind,
      remoteId: Number(r[col('remoteId')]),
      name: str(r[col('name')]),
      nameKey: str(r[col('nameKey')]) ?? '',
      latitude: num(r[col('latitude')]),
      longitude: num(r[col('longitude')]),
      pinpoint: num(r[col('pinpoint')]),
      firstStart: str(r[col('firstStart')]),
      fieldsHash: str(r[col('fieldsHash')]) ?? '',
      fields: ((typeof fields === 'string' ? JSON.parse(fields) : fields) ?? {}) as Record<
        string,
        unknown
      >,
      seenAt: Number(r[col('seenAt')]),
    };
  };

  const upsertObjects = async (
    resource: ResourceKind,
    items: Array<{ id: number; identity: RemoteIdentity }>,
    seenAt: number,
    walkId: string
  ) => {
    if (!items.length) return;
    const { table, col } = objects();
    const now = new Date();
    // One object twice in a page (a remote reordering under us) would fail the upsert.
    const unique = [...new Map(items.map((it) => [it.id, it])).values()];
    const rows = unique.map(({ id, identity }) =>
      newRow(col, now, {
        [col('resource')]: resource,
        [col('remoteId')]: id,
        [col('name')]: identity.name,
        [col('nameKey')]: identity.nameKey,
        [col('latitude')]: identity.latitude,
        [col('longitude')]: identity.longitude,
        [col('pinpoint')]: identity.pinpoint,
        [col('firstStart')]: identity.firstStart,
        [col('fieldsHash')]: identity.fieldsHash,
        [col('fields')]: JSON.stringify(identity.fields),
        [col('seenAt')]: seenAt,
        [col('walkId')]: walkId,
      })
    );
    const merged = [
      'name',
      'nameKey',
      'latitude',
      'longitude',
      'pinpoint',
      'firstStart',
      'fieldsHash',
      'fields',
      'seenAt',
      'walkId',
      'updatedAt',
    ].map(col);
    await insertRows(knex(), table, rows, { on: [col('resource'), col('remoteId')], set: merged });
  };

  /** Objects a complete walk of `resource`, begun at `before`, did not see: gone from the remote. */
  const removeUnseen = async (resource: ResourceKind, before: number) => {
    const { table, col } = objects();
    return knex()(table)
      .where(col('resource'), resource)
      .andWhere(col('seenAt'), '<', before)
      .del();
  };

  const upsertMembers = async (
    listId: number,
    pinpointIds: number[],
    seenAt: number,
    walkId: string
  ) => {
    if (!pinpointIds.length) return;
    const { table, col } = members();
    const now = new Date();
    const rows = [...new Set(pinpointIds)].map((pinpointId) =>
      newRow(col, now, {
        [col('listId')]: listId,
        [col('pinpointId')]: pinpointId,
        [col('seenAt')]: seenAt,
        [col('walkId')]: walkId,
      })
    );
    await insertRows(knex(), table, rows, {
      on: [col('listId'), col('pinpointId')],
      set: [col('seenAt'), col('walkId'), col('updatedAt')],
    });
  };

  /** Members of `listId` not seen by its walk begun at `before`; all of them when `before` is omitted. */
  const removeUnseenMembers = async (listId: number, before?: number) => {
    const { table, col } = members();
    const q = knex()(table).where(col('listId'), listId);
    if (before !== undefined) q.andWhere(col('seenAt'), '<', before);
    return q.del();
  };

  /** Everything held: the credentials now name another account. */
  const clear = async () => {
    await knex()(members().table).del();
    await knex()(objects().table).del();
  };

  /** Memberships of lists the inventory no longer holds. */
  const removeMembersOfMissingLists = async () => {
    const m = members();
    const o = objects();
    return knex()(m.table)
      .whereNotIn(
        m.col('listId'),
        knex()(o.table).where(o.col('resource'), 'list').select(o.col('remoteId'))
      )
      .del();
  };

  /** Ids of the lists held, in ascending order, after `afterId`. */
  const listIdsAfter = async (afterId: number, limit: number): Promise<number[]> => {
    const { table, col } = objects();
    const rows = await knex()(table)
      .where(col('resource'), 'list')
      .andWhere(col('remoteId'), '>', afterId)
      .orderBy(col('remoteId'), 'asc')
      .limit(limit)
      .select(col('remoteId'));
    return (rows as Row[]).map((r) => Number(r[col('remoteId')]));
  };

  /** Objects of `resource` whose name compares equal to `nameKey`. */
  const byNameKey = async (resource: ResourceKind, nameKey: string): Promise<InventoryRow[]> => {
    const { table, col } = objects();
    const rows = await knex()(table).where({
      [col('resource')]: resource,
      [col('nameKey')]: nameKey,
    });
    return rows.map(toRow);
  };

  const counts = async (): Promise<Record<ResourceKind, number> & { members: number }> => {
    const { table, col } = objects();
    const rows = await knex()(table)
      .select({ resource: col('resource') })
      .count({ n: '*' })
      .groupBy(col('resource'));
    const out = {
      pinpoint: 0,
      event: 0,
      category: 0,
      list: 0,
      members: 0,
    } as Record<ResourceKind, number> & { members: number };
    for (const r of rows as Row[]) out[r.resource as ResourceKind] = Number(r.n);
    const [m] = await knex()(members().table).count({ n: '*' });
    out.members = Number((m as Row | undefined)?.n ?? 0);
    return out;
  };

  /** Objects of `resource` by ascending remote id, a page at a time. */
  const page = async (
    resource: ResourceKind,
    afterId: number,
    limit: number
  ): Promise<InventoryRow[]> => {
    const { table, col } = objects();
    const rows = await knex()(table)
      .where(col('resource'), resource)
      .andWhere(col('remoteId'), '>', afterId)
      .orderBy(col('remoteId'), 'asc')
      .limit(limit);
    return rows.map(toRow);
  };

  /** Objects held that no entry's sync state names. */
  const unownedCount = async (): Promise<number> => {
    const o = objects();
    const st = tableInfo(strapi, STATE_UID);
    const [row] = await knex()(o.table)
      .whereNotExists(
        knex()(st.table)
          .whereRaw('??.?? = ??.??', [st.table, st.col('resource'), o.table, o.col('resource')])
          .andWhereRaw('??.?? = ??.??', [st.table, st.col('remoteId'), o.table, o.col('remoteId')])
          .select(knex().raw('1'))
      )
      .count({ n: '*' });
    return Number((row as Row | undefined)?.n ?? 0);
  };

  /**
   * Objects of `resource` that an entry owns, with an id up to `upToId`, that the inventory does
   * not hold: made by a create the walks never saw, or gone from the remote. How many.
   */
  const ownedNotHeld = async (resource: ResourceKind, upToId: number): Promise<number> => {
    const o = objects();
    const st = tableInfo(strapi, STATE_UID);
    const [row] = await knex()(st.table)
      .where(st.col('resource'), resource)
      .whereNotNull(st.col('remoteId'))
      .andWhere(st.col('remoteId'), '<=', upToId)
      .whereNotExists(
        knex()(o.table)
          .whereRaw('??.?? = ??.??', [o.table, o.col('resource'), st.table, st.col('resource')])
          .andWhereRaw('??.?? = ??.??', [o.table, o.col('remoteId'), st.table, st.col('remoteId')])
          .select(knex().raw('1'))
      )
      .count({ n: '*' });
    return Number((row as Row | undefined)?.n ?? 0);
  };

  /** Pinpoint ids of a list as last walked. */
  const membersOf = async (listId: number): Promise<number[]> => {
    const { table, col } = members();
    const rows = await knex()(table)
      .where(col('listId'), listId)
      .orderBy(col('pinpointId'), 'asc')
      .select(col('pinpointId'));
    return (rows as Row[]).map((r) => Number(r[col('pinpointId')]));
  };

  return {
    ensureIndexes,
    upsertObjects,
    removeUnseen,
    upsertMembers,
    removeUnseenMembers,
    removeMembersOfMissingLists,
    clear,
    listIdsAfter,
    byNameKey,
    counts,
    page,
    membersOf,
    unownedCount,
    ownedNotHeld,
  };
}

export type InventoryTable = ReturnType<typeof createInventoryTable>;
