/**
 * What the throw-away servers of the tests (PostgreSQL, MariaDB, the demo) need alike: a free port
 * on 127.0.0.1, and a user other than root to run a database server as.
 */
const { spawnSync } = require('node:child_process');
const net = require('node:net');

/** A port nothing listens on at the moment of asking (the caller binds it right after). */
const freePort = () =>
  new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });

/**
 * Who is to own a database server's files and process: ourselves (null), or as root, which the
 * servers refuse to run as, the first of `names` that exists.
 */
function serverOwner(names, what) {
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

module.exports = { freePort, serverOwner };
