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
const json = (v: unknown) => (typeof v === 'string' ? JSON.parse(v) : v) ?? {};
const count = (rows: Row[]) => Number(rows[0]?.n ?? 0);
/** `attrs` under their columns' names. */
const columns = (col: (attr: string) => string, attrs: object): Row =>
  Object.fromEntries(Object.entries(attrs).map(([k, v]) => [col(k), v]));

/**
 * The inventory tables: one row per remote object and per list membership, written a page at a
 * time (upserts keyed by resource and remote id), so a walk of any size holds one page in memory.
 */
export function createInventoryTable(strapi: Core.Strapi) {
  const knex = () => strapi.db.connection;
  const objects = () => tableInfo(strapi, INVENTORY_UID);
  const members = () => tableInfo(strapi, INVENTORY_MEMBER_UID);
  const states = () => tableInfo(strapi, STATE_UID);

  const toRow = (r: Row): InventoryRow => {
    const v = (c: string) => r[objects().col(c)];
    return {
      resource: v('resource') as ResourceKind,
      remoteId: Number(v('remoteId')),
      name: str(v('name')),
      nameKey: str(v('nameKey')) ?? '',
      latitude: num(v('latitude')),
      longitude: num(v('longitude')),
      pinpoint: num(v('pinpoint')),
      firstStart: str(v('firstStart')),
      fieldsHash: str(v('fieldsHash')) ?? '',
      fields: json(v('fields')),
      seenAt: Number(v('seenAt')),
    };
  };

  /** The rows of `inner` that name the remote object of the current row of `outer`. */
  const sameObject = (inner: ReturnType<typeof objects>, outer: ReturnType<typeof objects>) => {
    const [a, b] = [inner, outer].map((t) => (c: string) => `${t.table}.${t.col(c)}`);
    return knex()(inner.table)
      .where(a('resource'), knex().ref(b('resource')))
      .andWhere(a('remoteId'), knex().ref(b('remoteId')))
      .select(knex().raw('1'));
  };

  /** Objects of `resource` by ascending remote id after `afterId`; `unowned`: those no sync state names. */
  const ascending = (resource: ResourceKind, afterId: number, limit: number, unowned = false) => {
    const o = objects();
    const q = knex()(o.table)
      .where(o.col('resource'), resource)
      .andWhere(o.col('remoteId'), '>', afterId)
      .orderBy(o.col('remoteId'), 'asc')
      .limit(limit);
    return unowned ? q.whereNotExists(sameObject(states(), o)) : q;
  };

  /** Id and name only (100,000 objects are read so) of the objects `ascending` gives. */
  const names = async (resource: ResourceKind, afterId: number, limit: number, unowned = false) => {
    const { col } = objects();
    const rows: Row[] = await ascending(resource, afterId, limit, unowned).select(
      col('remoteId'),
      col('name')
    );
    return rows.map((r) => ({ remoteId: Number(r[col('remoteId')]), name: str(r[col('name')]) }));
  };

  /** Memberships of the given lists or pinpoints, as [list, pinpoint]. */
  const memberships = async (by: 'listId' | 'pinpointId', ids: number[]) => {
    const { table, col } = members();
    const rows: Row[] = ids.length
      ? await knex()(table).whereIn(col(by), ids).select(col('listId'), col('pinpointId'))
      : [];
    return rows.map((r): [number, number] => [
      Number(r[col('listId')]),
      Number(r[col('pinpointId')]),
    ]);
  };

  return {
    async ensureIndexes() {
      const { table, col } = objects();
      const m = members();
      await ensureIndex(strapi, table, 'remote_uq', [col('resource'), col('remoteId')], {
        unique: true,
      });
      await ensureIndex(strapi, table, 'name_idx', [col('resource'), col('nameKey')]);
      await ensureIndex(strapi, m.table, 'member_uq', [m.col('listId'), m.col('pinpointId')], {
        unique: true,
      });
    },

    async upsertObjects(
      resource: ResourceKind,
      items: Array<{ id: number; identity: RemoteIdentity }>,
      seenAt: number
    ) {
      if (!items.length) return;
      const { table, col } = objects();
      const now = new Date();
      // One object twice in a page (a remote reordering under us) would fail the upsert.
      const unique = [...new Map(items.map((it) => [it.id, it])).values()];
      const rows = unique.map(({ id, identity }) =>
        newRow(col, now, columns(col, identity), {
          [col('resource')]: resource,
          [col('remoteId')]: id,
          [col('fields')]: JSON.stringify(identity.fields),
          [col('seenAt')]: seenAt,
        })
      );
      const set = [...Object.keys(unique[0].identity), 'seenAt', 'updatedAt'].map(col);
      await insertRows(knex(), table, rows, { on: [col('resource'), col('remoteId')], set });
    },

    /** Objects a complete walk of `resource`, begun at `before`, did not see: gone from the remote. */
    removeUnseen: (resource: ResourceKind, before: number) =>
      strapi.db.query(INVENTORY_UID).deleteMany({ where: { resource, seenAt: { $lt: before } } }),

    async upsertMembers(listId: number, pinpointIds: number[], seenAt: number) {
      if (!pinpointIds.length) return;
      const { table, col } = members();
      const now = new Date();
      const rows = [...new Set(pinpointIds)].map((pinpointId) =>
        newRow(col, now, columns(col, { listId, pinpointId, seenAt }))
      );
      await insertRows(knex(), table, rows, {
        on: [col('listId'), col('pinpointId')],
        set: [col('seenAt'), col('updatedAt')],
      });
    },

    /** Members of `listId` not seen by its walk begun at `before`; all of them when `before` is omitted. */
    removeUnseenMembers: (listId: number, before?: number) =>
      strapi.db.query(INVENTORY_MEMBER_UID).deleteMany({
        where: before === undefined ? { listId } : { listId, seenAt: { $lt: before } },
      }),

    /** Memberships of lists the inventory no longer holds. */
    removeMembersOfMissingLists() {
      const m = members();
      const o = objects();
      const lists = knex()(o.table).where(o.col('resource'), 'list').select(o.col('remoteId'));
      return knex()(m.table).whereNotIn(m.col('listId'), lists).del();
    },

    /** Everything held: the credentials now name another account. */
    async clear() {
      await knex()(members().table).del();
      await knex()(objects().table).del();
    },

    /** One object deleted from the remote, with its memberships (a list's or a pinpoint's). */
    async remove(resource: ResourceKind, remoteId: number) {
      await strapi.db.query(INVENTORY_UID).deleteMany({ where: { resource, remoteId } });
      // Ids are per resource: event 3 is no pinpoint 3.
      const side = { list: 'listId', pinpoint: 'pinpointId' }[resource as string];
      if (side)
        await strapi.db.query(INVENTORY_MEMBER_UID).deleteMany({ where: { [side]: remoteId } });
    },

    /** Objects of `resource` whose name compares equal to `nameKey`. */
    async byNameKey(resource: ResourceKind, nameKey: string): Promise<InventoryRow[]> {
      const { table, col } = objects();
      const rows = await knex()(table).where({
        [col('resource')]: resource,
        [col('nameKey')]: nameKey,
      });
      return rows.map(toRow);
    },

    /** The documented fields of the objects of `resource` among `ids`, by id. */
    async fieldsByIds(resource: ResourceKind, ids: number[]) {
      const { table, col } = objects();
      const rows: Row[] = ids.length
        ? await knex()(table)
            .where(col('resource'), resource)
            .whereIn(col('remoteId'), ids)
            .select(col('remoteId'), col('fields'))
        : [];
      return new Map(rows.map((r) => [Number(r[col('remoteId')]), json(r[col('fields')])]));
    },

    async counts(): Promise<Record<ResourceKind, number> & { members: number }> {
      const { table, col } = objects();
      const rows: Row[] = await knex()(table)
        .select({ resource: col('resource') })
        .count({ n: '*' })
        .groupBy(col('resource'));
      const held = Object.fromEntries(rows.map((r) => [r.resource, Number(r.n)]));
      const m = count(await knex()(members().table).count({ n: '*' }));
      return { pinpoint: 0, event: 0, category: 0, list: 0, ...held, members: m };
    },

    /** Whole objects `ascending` gives. */
    page: async (resource: ResourceKind, afterId: number, limit: number, unowned = false) =>
      (await ascending(resource, afterId, limit, unowned)).map(toRow),

    names,

    /** Id and name of every object of `resource` that no sync state names, a page at a time. */
    async *unowned(resource: ResourceKind) {
      for (let after = 0; ;) {
        const rows = await names(resource, after, 500, true);
        if (!rows.length) return;
        after = rows[rows.length - 1].remoteId;
        yield* rows;
      }
    },

    /** Pinpoint ids of a list as last walked. */
    membersOf: async (listId: number): Promise<number[]> =>
      (await memberships('listId', [listId])).map(([, p]) => p).sort((a, b) => a - b),

    memberships,

    /** Objects held that no entry's sync state names. */
    async unownedCount(): Promise<number> {
      const o = objects();
      return count(await knex()(o.table).whereNotExists(sameObject(states(), o)).count({ n: '*' }));
    },

    /** How many objects of `resource` up to `upToId` an entry owns and the inventory lacks (unseen or gone). */
    async ownedNotHeld(resource: ResourceKind, upToId: number): Promise<number> {
      const st = states();
      const rows = await knex()(st.table)
        .where(st.col('resource'), resource)
        .whereNotNull(st.col('remoteId'))
        .andWhere(st.col('remoteId'), '<=', upToId)
        .whereNotExists(sameObject(objects(), st))
        .count({ n: '*' });
      return count(rows);
    },
  };
}

export type InventoryTable = ReturnType<typeof createInventoryTable>;
