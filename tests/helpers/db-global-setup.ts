/**
 * The globalSetup / globalTeardown of the integration-postgres and integration-mariadb projects: one
 * throw-away server per jest run, its address in LC_TEST_DB_<KIND> for the workers (started after this).
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ensureMariadb, startServer } from './mariadb';
import { ensurePostgres, startCluster } from './postgres';
import type { TestDbServer } from './db-admin';
import { infoFile } from './test-db';

type ServerKind = 'postgres' | 'mariadb';
interface Running {
  handle: { stop(): void | Promise<void> };
  info: TestDbServer;
  file?: string;
}

// Kept on globalThis: jest runs a project's globalSetup and globalTeardown in the same process.
const servers = (): Running[] =>
  ((globalThis as { __LC_TEST_DB_SERVERS__?: Running[] }).__LC_TEST_DB_SERVERS__ ??= []);
const clientOf = (kind: ServerKind) => (kind === 'postgres' ? 'postgres' : 'mysql');

/** jest runs a globalSetup module once however many projects name it: one module per kind (db-setup-<kind>.ts). */
export async function setup(kind: ServerKind): Promise<void> {
  const envName = `LC_TEST_DB_${kind.toUpperCase()}`;
  if (process.env[envName]) return;
  const t0 = Date.now();
  let server: Running;
  if (kind === 'postgres') {
    const found = ensurePostgres();
    if (!found.bin) throw new Error(`integration-postgres: ${found.reason}`);
    const pg = await startCluster(found.bin);
    server = {
      handle: pg,
      info: {
        client: 'postgres',
        host: pg.host,
        port: pg.port,
        user: pg.user,
        password: pg.password,
      },
    };
  } else if (kind === 'mariadb') {
    const found = ensureMariadb();
    if (!found.bin) throw new Error(`integration-mariadb: ${found.reason}`);
    const db = await startServer(found.bin);
    server = {
      handle: db,
      info: { client: 'mysql', host: db.host, port: db.port, user: db.user, password: db.password },
    };
  } else {
    throw new Error(`db-global-setup: unknown kind ${kind}`);
  }
  process.env[envName] = JSON.stringify(server.info);
  const file = infoFile(kind, process.pid);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, process.env[envName]!);
  server.file = file;
  servers().push(server);
  if (process.env.LC_TEST_DB_VERBOSE)
    console.log(`\n[test-db] ${kind} on 127.0.0.1:${server.info.port} in ${Date.now() - t0} ms`);
}

export async function teardown(kind: ServerKind): Promise<void> {
  const all = servers();
  for (const server of all.filter((s) => s.info.client === clientOf(kind))) {
    if (server.file) rmSync(server.file, { force: true });
    await server.handle.stop();
    all.splice(all.indexOf(server), 1);
  }
}
