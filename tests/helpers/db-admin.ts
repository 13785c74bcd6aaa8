/**
 * The administrator's hand on the run's database server (PostgreSQL or MariaDB, started by
 * tests/helpers/db-global-setup.ts): one statement, or one session held for several (a lock
 * between jest workers, statements that share the session's settings).
 */
import { pg } from './postgres';

export interface TestDbServer {
  client: 'postgres' | 'mysql';
  host: string;
  port: number;
  user: string;
  password: string;
}

export type Row = Record<string, unknown>;

export interface AdminSession {
  /** the rows `sql` answers (none for a statement that answers no rows) */
  query(sql: string): Promise<Row[]>;
  end(): Promise<void>;
}

/** A session as the administrator, in `database` (default: none; PostgreSQL's `postgres`). */
async function adminSession(server: TestDbServer, database?: string): Promise<AdminSession> {
  const login = { host: server.host, port: server.port, user: server.user };
  if (server.client === 'postgres') {
    const client = new (pg().Client)({
      ...login,
      password: server.password,
      database: database ?? 'postgres',
    });
    await client.connect();
    return { query: async (sql) => (await client.query(sql)).rows, end: () => client.end() };
  }
  const mysql = await import('mysql2/promise');
  const conn = await mysql.createConnection({
    ...login,
    password: server.password,
    database,
  });
  return {
    async query(sql) {
      const [result] = await conn.query(sql);
      // A statement without rows answers a header instead.
      return Array.isArray(result) ? (result as Row[]) : [];
    },
    end: () => conn.end(),
  };
}

/** Runs `sql` on the server as its administrator, in `database`. */
export async function adminQuery(
  server: TestDbServer,
  sql: string,
  database?: string
): Promise<Row[]> {
  const session = await adminSession(server, database);
  try {
    return await session.query(sql);
  } finally {
    await session.end();
  }
}

/**
 * Runs `fn` while holding the PostgreSQL advisory lock `name`: the jest workers of a run share one
 * server, and what one of them makes on it (a template database) the other must wait for.
 */
export async function withServerLock<T>(
  server: TestDbServer,
  name: string,
  fn: () => Promise<T>
): Promise<T> {
  const session = await adminSession(server);
  try {
    await session.query(`SELECT pg_advisory_lock(hashtext('${name}'))`);
    return await fn();
  } finally {
    // Closing the session releases the lock.
    await session.end();
  }
}

/** env for the playground's config/database.js: `database` on `server`. */
export const serverEnv = (server: TestDbServer, database: string): Record<string, string> => ({
  DATABASE_CLIENT: server.client,
  DATABASE_HOST: server.host,
  DATABASE_PORT: String(server.port),
  DATABASE_NAME: database,
  DATABASE_USERNAME: server.user,
  DATABASE_PASSWORD: server.password,
});

export async function databaseExists(server: TestDbServer, name: string): Promise<boolean> {
  const sql =
    server.client === 'postgres'
      ? `SELECT 1 FROM pg_database WHERE datname = '${name}'`
      : `SELECT 1 FROM information_schema.schemata WHERE schema_name = '${name}'`;
  return (await adminQuery(server, sql)).length > 0;
}

/** An empty database, in the character set and collation Strapi's docs ask of MariaDB. */
export async function createEmptyDatabase(server: TestDbServer, name: string): Promise<void> {
  await adminQuery(
    server,
    server.client === 'postgres'
      ? `CREATE DATABASE ${name}`
      : `CREATE DATABASE \`${name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`
  );
}

export async function dropDatabase(server: TestDbServer, name: string): Promise<void> {
  await adminQuery(
    server,
    server.client === 'postgres'
      ? `DROP DATABASE IF EXISTS ${name}`
      : `DROP DATABASE IF EXISTS \`${name}\``
  );
}
