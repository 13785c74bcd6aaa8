/**
 * Makes a template database of tests/helpers/db-template.ts: boots Strapi once on APP_DIR (the
 * env names the database: SQLite or PostgreSQL), sync off, so that Strapi creates its schema and
 * its first boot's rows (the admin's roles and their permissions, the default locale and API
 * tokens, the stored content-manager configurations), then takes back what the plugin wrote: the
 * rows of its tables, with ids counting from 1 again, and every index Strapi's schema does not
 * declare (the plugin creates its own at each boot). A test app on it skips Strapi's first-boot
 * setup and meets a plugin on an empty database, as it would once the admin is set up.
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

/** The tables of the plugin's content types, their join tables included. */
function pluginTables(strapi: Core.Strapi): string[] {
  const names = new Set<string>();
  for (const [uid, meta] of strapi.db.metadata) {
    if (!uid.startsWith('plugin::location-content.')) continue;
    names.add(meta.tableName);
    for (const attribute of Object.values(meta.attributes))
      if ('joinTable' in attribute && attribute.joinTable) names.add(attribute.joinTable.name);
  }
  return [...names];
}

async function takeBackPluginRows(strapi: Core.Strapi) {
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
  const emptied = pluginTables(strapi);
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
    if (sequence) await knex('sqlite_sequence').whereIn('name', emptied).del();
    await knex.raw('VACUUM');
    // One self-contained file to copy (the app turns WAL on again at its first connection).
    await knex.raw('PRAGMA journal_mode = DELETE');
  }
}

async function main(appDir: string) {
  const { createStrapi } = createRequire(path.join(appDir, 'package.json'))('@strapi/strapi');
  // The sync is off (db-template.ts): no walk to wait for.
  const strapi = await loadStrapi({ createStrapi, appDir, linkWalkMs: false });
  await takeBackPluginRows(strapi);
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
