import type { Core } from '@strapi/strapi';
import type { Knex } from 'knex';
import { reasonOf } from './db-error';

/**
 * The statements whose SQL differs between the databases Strapi 5 runs on. Each one lives here,
 * with its variant per dialect; everything else goes through knex's builders, which already
 * speak each dialect.
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
 * In an upsert's update part, the value the INSERT proposed for `column`: PostgreSQL and SQLite
 * name it `excluded.col`; MySQL and MariaDB `VALUES(col)` (MariaDB has no row alias, and MySQL 8
 * still accepts VALUES()).
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
  /** Columns that take the proposed row's value, or the SQL each column takes (the same at every call). */
  set: string[] | Record<string, Knex.Raw>;
};

const statementText = new Map<string, string>();
const conflictIds = new WeakMap<OnConflict, number>();
let conflictCount = 0;

const conflictKey = (conflict?: OnConflict) => {
  if (!conflict) return '';
  if (Array.isArray(conflict.set)) return `${conflict.on.join(',')}|${conflict.set.join(',')}`;
  let n = conflictIds.get(conflict);
  if (n === undefined) conflictIds.set(conflict, (n = ++conflictCount));
  return `#${n}`;
};

const insertText = (
  db: Knex,
  dialect: DialectName,
  table: string,
  columns: string[],
  rowCount: number,
  conflict?: OnConflict
) => {
  const id = (name: string) => db.raw('??', [name]).toQuery();
  const row = `(${columns.map(() => '?').join(', ')})`;
  let sql = `insert into ${id(table)} (${columns.map(id).join(', ')}) values ${Array(rowCount).fill(row).join(', ')}`;
  if (conflict) {
    const set = Array.isArray(conflict.set)
      ? conflict.set.map((c) => {
          const proposed = dialect === 'mysql' ? `VALUES(${id(c)})` : `excluded.${id(c)}`;
          return `${id(c)} = ${proposed}`;
        })
      : Object.entries(conflict.set).map(([c, expr]) => `${id(c)} = ${expr.toQuery()}`);
    sql +=
      dialect === 'mysql'
        ? ` on duplicate key update ${set.join(', ')}`
        : ` on conflict (${conflict.on.map(id).join(', ')}) do update set ${set.join(', ')}`;
  }
  return sql;
};

/** Rows per statement: at most 200, and never more bindings than any of the databases takes. */
const rowsPerStatement = (columnCount: number) =>
  Math.max(1, Math.min(200, Math.floor(10_000 / columnCount)));

/**
 * `INSERT … VALUES (…), (…)` of rows that have the columns of the first one, or an upsert with
 * `conflict` (whose `set`, when it holds SQL, must be the same object at every call), in
 * statements of up to 200 rows.
 *
 * The statement's text is built once per table, columns, row count and conflict, then run as raw
 * SQL: knex's builder compiled every batch anew, and on SQLite it writes a multi-row insert as
 * `SELECT ? AS "col" UNION ALL SELECT …`, wrapping every column name of every row (a quarter of
 * what a resync allocated, and a statement SQLite prepares and runs slower than `VALUES`).
 */
export async function insertRows(
  db: Knex,
  table: string,
  rows: Array<Record<string, unknown>>,
  conflict?: OnConflict
): Promise<void> {
  if (!rows.length) return;
  const columns = Object.keys(rows[0]);
  // knex's own name of the dialect: a client given as a class has no name in the config.
  const dialect = dialectNamed(String(db.client.dialect ?? db.client.config?.client));
  const shape = `${dialect}|${table}|${columns.join(',')}|${conflictKey(conflict)}`;
  // Every row is checked before the first statement runs: a bad row in a later statement must not
  // leave the earlier ones written.
  const bindings = bindingsOf(table, columns, rows);
  const size = rowsPerStatement(columns.length);
  for (let start = 0; start < rows.length; start += size) {
    const count = Math.min(size, rows.length - start);
    const key = `${shape}|${count}`;
    let sql = statementText.get(key);
    if (sql === undefined) {
      sql = insertText(db, dialect, table, columns, count, conflict);
      // Shapes are few (a table's column sets times the batch sizes): the bound only guards a leak.
      if (statementText.size >= 2_000) statementText.clear();
      statementText.set(key, sql);
    }
    const from = start * columns.length;
    await db.raw(sql, bindings.slice(from, from + count * columns.length));
  }
}

/** The rows' values in column order; `undefined` as NULL, a row without a column refused. */
const bindingsOf = (table: string, columns: string[], rows: Array<Record<string, unknown>>) => {
  const bindings: Knex.Value[] = new Array(rows.length * columns.length);
  let i = 0;
  for (const row of rows) {
    for (const column of columns) {
      const value = row[column] as Knex.Value | undefined;
      if (value === undefined && !(column in row))
        throw new Error(`[location-content] a row inserted into ${table} has no ${column}`);
      bindings[i++] =
        value === undefined ? null : isPlainObject(value) ? JSON.stringify(value) : value;
    }
  }
  return bindings;
};

/** As knex's builder has it for a JSON column: a plain object goes in as its JSON text (drivers differ on objects). */
const isPlainObject = (value: unknown) => {
  if (typeof value !== 'object' || value === null) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
};

/** Whether `table` has an index named `name`: MySQL 8 has no CREATE INDEX IF NOT EXISTS. */
const hasIndex = async (strapi: Core.Strapi, table: string, name: string) => {
  const rows = await strapi.db
    .connection('information_schema.statistics')
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
 * Gathers SQLite's planner statistics where they are missing or stale, as SQLite advises for a
 * long-lived connection (`PRAGMA optimize=0x10002`: every table; SQLite >= 3.46 caps the rows it
 * reads). Strapi never does, and without statistics SQLite takes an equality on any indexed
 * column for selective: it reads a component populate (`places_cmps ... where field = ? and
 * entity_id in (...)`) through the index on `field`, which every row matches: 23 ms per hundred
 * entries at 100,000 entries and growing with the table, 0.6 ms once it has statistics. A resync
 * reads every entry that way. PostgreSQL and MySQL keep their statistics themselves.
 */
export async function refreshPlannerStatistics(strapi: Core.Strapi): Promise<void> {
  if (dialectOf(strapi) !== 'sqlite') return;
  try {
    await strapi.db.connection.raw('PRAGMA optimize=0x10002');
  } catch (err) {
    strapi.log.warn(
      `[location-content] could not refresh SQLite's planner statistics (PRAGMA optimize): ${reasonOf(err)}`
    );
  }
}
