/**
 * What the throw-away servers of the tests (PostgreSQL, MariaDB, the demo) need alike: a free port
 * on 127.0.0.1, and a user other than root to run a database server as.
 */
import { spawnSync } from 'node:child_process';
import net from 'node:net';

/** A port nothing listens on at the moment of asking (the caller binds it right after). */
export const freePort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });

export interface ServerOwner {
  name: string;
  uid: number;
  gid: number;
}

/**
 * Who is to own a database server's files and process: ourselves (null), or as root, which the
 * servers refuse to run as, the first of `names` that exists.
 */
export function serverOwner(names: string[], what: string): ServerOwner | null {
  if (typeof process.getuid !== 'function' || process.getuid() !== 0) return null;
  for (const name of names) {
    const id = spawnSync('id', ['-u', name], { encoding: 'utf8' });
    if (id.status === 0)
      return {
        name,
        uid: Number(id.stdout.trim()),
        gid: Number(spawnSync('id', ['-g', name], { encoding: 'utf8' }).stdout.trim()),
      };
  }
  throw new Error(`running as root, and none of ${names.join(', ')} exists to own ${what}`);
}
