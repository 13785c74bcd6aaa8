export interface PgCluster {
  host: string;
  port: number;
  user: string;
  password: string;
  database: string;
  dir: string;
  /** env for the playground's config/database.js */
  env: Record<string, string>;
  stop(): void;
  /** stops the server as a crash would, keeping its data and port */
  down(): void;
  /** starts it again after down() */
  up(): void;
}
/** The PostgreSQL binaries folder, installing Debian's postgresql when missing and root; or why not. */
export function ensurePostgres(options?: {
  install?: boolean;
}): { bin: string; reason?: undefined } | { bin?: undefined; reason: string };
export function startCluster(bin: string, options?: { database?: string }): Promise<PgCluster>;
