/**
 * Makes a template database of tests/helpers/db-template.ts: boots Strapi once on APP_DIR (the
 * env names the database: SQLite or PostgreSQL), so that Strapi creates its schema, then
 * takes back everything that boot wrote besides the schema: every row (the schema's own record and
 * the migrations run excepted), with ids counting from 1 again, and every index Strapi's schema
 * does not declare (the plugin creates its own at each boot). What is left is the database
 * Strapi's schema sync would leave on an empty one, before any bootstrap.
 *
 *   APP_DIR=... DATABASE_CLIENT=sqlite DATABASE_FILENAME=... node tests/helpers/node.js db-template-child
 *
 * This file is compiled by tsx (node.js), Strapi is not (it does not boot under tsx): Strapi is
 * loaded by plain Node's require, beside the app, as in strapi-child.ts.
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Core } from '@strapi/strapi';
import { loadStrapi } from './boot';

// What Strapi reads to tell a schema it made (and the migrations it ran) from a new database.
const KEEP = new Set(['strapi_database_schema', 'strapi_migrations', 'strapi_migrations_internal']);

async function emptyToSchema(strapi: Core.Strapi) {
  const { db } = strapi;
  const { client } = db.dialect;
  if (client !== 'sqlite' && client !== 'postgres') throw new Error(`db-template: ${client}`);
  const declared = new Set(
    db.schema.schema.tables.flatMap((t) => (t.indexes ?? []).map((index) => index.name))
  );
  const found = await db.dialect.schemaInspector.getSchema();
  const knex = db.connection;
  for (const table of found.tables) {
    for (const index of table.indexes ?? []) {
      if (declared.has(index.name)) continue;
      await knex.raw('DROP INDEX IF EXISTS ??', [index.name]);
    }
  }
  const emptied = found.tables.map((t) => t.name).filter((name) => !KEEP.has(name));
  // Row ids start at 1 again, as in a new database.
  if (client === 'postgres') {
    await knex.raw(
      `TRUNCATE TABLE ${emptied.map(() => '??').join(', ')} RESTART IDENTITY CASCADE`,
      emptied
    );
  } else {
    await knex.raw('PRAGMA foreign_keys = OFF');
    for (const name of emptied) await knex(name).del();
    const sequence = await knex('sqlite_master').where({ name: 'sqlite_sequence' }).first();
    if (sequence) await knex('sqlite_sequence').del();
    await knex.raw('VACUUM');
    // One self-contained file to copy (the app turns WAL on again at its first connection).
    await knex.raw('PRAGMA journal_mode = DELETE');
  }
}

async function main(appDir: string) {
  const { createStrapi } = createRequire(path.join(appDir, 'package.json'))('@strapi/strapi');
  // The sync is off (db-template.ts): no walk to wait for.
  const strapi = await loadStrapi({ createStrapi, appDir, linkWalkMs: false });
  await emptyToSchema(strapi);
  await strapi.destroy();
}

const APP_DIR = process.env.APP_DIR;
if (!APP_DIR) {
  process.stderr.write('db-template-child: APP_DIR names the app to boot\n');
  process.exit(2);
}
main(APP_DIR).then(
  () => process.exit(0),
  (err) => {
    process.stderr.write(`db-template: ${err?.stack ?? err}\n`);
    process.exit(1);
  }
);
