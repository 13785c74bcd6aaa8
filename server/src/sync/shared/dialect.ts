import type { Core } from '@strapi/strapi';
import type { Knex } from 'knex';
import { PLUGIN_ID } from '../../permissions';
import { reasonOf } from './db-error';

/**
 * The statements whose SQL differs between the databases Strapi 5 runs on and that knex's
 * builders cannot write for each of them: each raw piece here says why.
 */
export type DialectName = 'sqlite' | 'postgres' | 'mysql';

const dialectNamed = (client: string): DialectName => {
  if (/^(pg|postgres)/.test(client)) return 'postgres';
  if (/^(mysql|mariadb)/.test(client)) return 'mysql';
  return 'sqlite';
};

export const dialectOf = (strapi: Core.Strapi): DialectName =>
  dialectNamed(
    String(strapi.db.dialect?.client ?? strapi.db.config?.connection?.client ?? 'sqlite')
  );

/**
 * In an upsert's update part, the value the INSERT proposed for `column`, for SQL that computes
 * from it (knex's merge() names it only as a whole column's new value): PostgreSQL and SQLite name
 * it `excluded.col`; MySQL and MariaDB `VALUES(col)` (MariaDB has no row alias, and MySQL 8 still
 * accepts VALUES()).
 */
export const proposed = (strapi: Core.Strapi, column: string) => {
  const knex = strapi.db.connection;
  return dialectOf(strapi) === 'mysql'
    ? knex.raw('VALUES(??)', [column])
    : knex.raw('excluded.??', [column]);
};

/** What a multi-row insert does with a row whose unique key is taken already. */
export type OnConflict = {
  /** The columns of the unique key. */
  on: string[];
  /** Columns that take the proposed row's value, or the SQL each column takes. */
  set: string[] | Record<string, Knex.Raw>;
};

/** Rows per statement: at most 200, and never more bindings than any of the databases takes. */
const rowsPerStatement = (columnCount: number) =>
  Math.max(1, Math.min(200, Math.floor(10_000 / columnCount)));

/**
 * A multi-row insert of rows that have the columns of the first one, or an upsert with
 * `conflict`, in statements of up to 200 rows (knex's `onConflict().merge()` speaks each dialect).
 */
export async function insertRows(
  db: Knex,
  table: string,
  rows: Array<Record<string, unknown>>,
  conflict?: OnConflict
): Promise<void> {
  if (!rows.length) return;
  const columns = Object.keys(rows[0]);
  // Every row is checked before the first statement runs: a bad row in a later statement must not
  // leave the earlier ones written.
  const values = valuesOf(table, columns, rows);
  const size = rowsPerStatement(columns.length);
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

/** Whether `table` has an index named `name`: MySQL 8 has no CREATE INDEX IF NOT EXISTS. */
const hasIndex = async (strapi: Core.Strapi, table: string, name: string) => {
  const rows = await strapi.db
    .connection('information_schema.statistics')
    // Raw: the current database is a function call, which knex's builder has no name for.
    .where({
      table_schema: strapi.db.connection.raw('DATABASE()'),
      table_name: table,
      index_name: name,
    })
    .first('index_name');
  return Boolean(rows);
};

/** Creates an index unless it is there already. */
export async function createIndexIfMissing(
  strapi: Core.Strapi,
  table: string,
  name: string,
  columns: string[],
  unique: boolean
) {
  const knex = strapi.db.connection;
  if (dialectOf(strapi) === 'mysql') {
    if (await hasIndex(strapi, table, name)) return;
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

/**
 * The decimals the database keeps in a numeric column, read from the database itself; null on
 * SQLite (whose `decimal` keeps what it is given) or when the column is not found.
 */
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
 * When `sqliteOptimize` is on, gathers SQLite's planner statistics where they are missing or stale
 * (`PRAGMA optimize=0x10002`: every table; raw, a pragma has no builder). Strapi never does, and
 * without them SQLite reads a component populate through the index on `field`, which every row
 * matches: 23 ms per hundred entries at 100,000, 0.6 ms with statistics (a resync of 100,000 ran at
 * 369 pushes/s without, 871 with). PostgreSQL and MySQL keep their statistics themselves.
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
