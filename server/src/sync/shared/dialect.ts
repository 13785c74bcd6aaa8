import type { Core } from '@strapi/strapi';
import type { Knex } from 'knex';
import { PLUGIN_ID } from '../../permissions';
import { reasonOf } from './db-error';

/**
 * The statements whose SQL differs between the databases Strapi 5 runs on and that knex's
 * builders cannot write for each of them: each raw piece here says why.
 */

/** Strapi's own name of its dialect: it refuses any client but these three (MariaDB runs as mysql). */
const dialectOf = (strapi: Core.Strapi) =>
  strapi.db.dialect.client as 'postgres' | 'mysql' | 'sqlite';

/**
 * In an upsert's update part, the value the INSERT proposed for `column` (knex's merge() names only
 * a whole column): `excluded.col` on PostgreSQL and SQLite, `VALUES(col)` on MySQL and MariaDB.
 */
export const proposed = (strapi: Core.Strapi, column: string) => {
  const knex = strapi.db.connection;
  return dialectOf(strapi) === 'mysql'
    ? knex.raw('VALUES(??)', [column])
    : knex.raw('excluded.??', [column]);
};

/** What a multi-row insert does with a row whose unique key (`on`) is taken: the columns that take the proposed value, or the SQL each takes. */
export type OnConflict = { on: string[]; set: string[] | Record<string, Knex.Raw> };

/** A multi-row insert (an upsert with `conflict`) of rows that have the columns of the first one. */
export async function insertRows(
  db: Knex,
  table: string,
  rows: Array<Record<string, unknown>>,
  conflict?: OnConflict
): Promise<void> {
  if (!rows.length) return;
  const columns = Object.keys(rows[0]);
  // Checked before the first statement, which must not be written when a later one fails.
  const values = valuesOf(table, columns, rows);
  // At most 200 rows, and never more bindings than any of the databases takes.
  const size = Math.max(1, Math.min(200, Math.floor(10_000 / columns.length)));
  for (let start = 0; start < values.length; start += size) {
    const insert = db(table).insert(values.slice(start, start + size));
    await (conflict ? insert.onConflict(conflict.on).merge(conflict.set) : insert);
  }
}

/** The rows with `undefined` as NULL and a plain object as its JSON text; a row without a column refused. */
const valuesOf = (table: string, columns: string[], rows: Array<Record<string, unknown>>) =>
  rows.map((row) => {
    const out: Record<string, Knex.Value> = {};
    for (const column of columns) {
      const value = row[column] as Knex.Value | undefined;
      if (value === undefined && !(column in row))
        throw new Error(`[location-content] a row inserted into ${table} has no ${column}`);
      out[column] =
        value === undefined ? null : isPlainObject(value) ? JSON.stringify(value) : value;
    }
    return out;
  });

/** A plain object goes in as its JSON text: the drivers differ on objects (better-sqlite3 refuses them). */
const isPlainObject = (value: unknown) => {
  if (typeof value !== 'object' || value === null) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
};

/** An index Strapi's schema cannot declare, named after its table; idempotent, run at every boot. */
export async function ensureIndex(
  strapi: Core.Strapi,
  table: string,
  suffix: string,
  columns: string[],
  { unique = false } = {}
) {
  const knex = strapi.db.connection;
  const name = `${table}_${suffix}`;
  if (dialectOf(strapi) === 'mysql') {
    // MySQL 8 has no CREATE INDEX IF NOT EXISTS; raw: the current database is a function call.
    const where = { table_schema: knex.raw('DATABASE()'), table_name: table, index_name: name };
    if (await knex('information_schema.statistics').where(where).first('index_name')) return;
    await knex.schema.alterTable(table, (t: Knex.AlterTableBuilder) =>
      unique ? t.unique(columns, { indexName: name }) : t.index(columns, name)
    );
    return;
  }
  // Raw: knex's schema builder has no IF NOT EXISTS for an index.
  const placeholders = columns.map(() => '??').join(', ');
  await knex.raw(
    `CREATE ${unique ? 'UNIQUE ' : ''}INDEX IF NOT EXISTS ?? ON ?? (${placeholders})`,
    [name, table, ...columns]
  );
}

/** The decimals a numeric column keeps; null on SQLite (whose `decimal` keeps all) or for no such column. */
export async function decimalScale(
  strapi: Core.Strapi,
  table: string,
  column: string
): Promise<number | null> {
  const dialect = dialectOf(strapi);
  if (dialect === 'sqlite') return null;
  const knex = strapi.db.connection;
  // Raw: the current schema is a function call, which knex's builder has no name for.
  const schema = dialect === 'mysql' ? knex.raw('DATABASE()') : knex.raw('current_schema()');
  // MySQL answers with the column's own upper-case name, whatever the alias.
  const row: { scale?: unknown; NUMERIC_SCALE?: unknown } | undefined = await knex(
    'information_schema.columns'
  )
    .where({ table_schema: schema, table_name: table, column_name: column })
    .first({ scale: 'numeric_scale' });
  const scale = row == null ? null : Number(row.scale ?? row.NUMERIC_SCALE);
  return scale == null || !Number.isFinite(scale) ? null : scale;
}

/**
 * With `sqliteOptimize`, SQLite's planner statistics where missing or stale (raw: a pragma has no
 * builder): without them a resync of 100,000 ran at 369 pushes/s, with them 871 (bench/HISTORY.md).
 */
export async function refreshPlannerStatistics(strapi: Core.Strapi): Promise<void> {
  if (dialectOf(strapi) !== 'sqlite' || !strapi.config.get(`plugin::${PLUGIN_ID}.sqliteOptimize`))
    return;
  try {
    await strapi.db.connection.raw('PRAGMA optimize=0x10002');
  } catch (err) {
    strapi.log.warn(
      `[location-content] could not refresh SQLite's planner statistics (PRAGMA optimize): ${reasonOf(err)}`
    );
  }
}
