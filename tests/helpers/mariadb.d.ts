export interface MariadbServer {
  host: string;
  port: number;
  user: string;
  password: string;
  database: string;
  dir: string;
  env: Record<string, string>;
  kill(): Promise<void>;
  restart(): Promise<void>;
  stop(): Promise<void>;
}
export function ensureMariadb(options?: { install?: boolean }): {
  bin?: { server: string; installDb: string };
  reason?: string;
};
export function startServer(
  bin: { server: string; installDb: string },
  options?: { database?: string }
): Promise<MariadbServer>;
