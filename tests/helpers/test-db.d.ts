export type TestDbKind = 'sqlite' | 'postgres' | 'mariadb';
export interface TestDbServer {
  client: 'postgres' | 'mysql';
  host: string;
  port: number;
  user: string;
  password: string;
}
export const KINDS: TestDbKind[];
export function infoFile(kind: TestDbKind, pid: number): string;
export function kind(): TestDbKind;
export function serverOf(kind?: TestDbKind): TestDbServer | null;
export function databaseName(appDir: string): string;
export function databaseEnv(
  appDir: string,
  options?: { database?: string }
): Record<string, string>;
export function createDatabase(appDir: string, name?: string): Promise<void>;
export function adminQuery(server: TestDbServer, sql: string, database?: string): Promise<any[]>;
export function appQuery(appDir: string, sql: string): Promise<any[]>;
