const path = require('path');

module.exports = ({ env }) => {
  const client = env('DATABASE_CLIENT', 'sqlite');
  // MySQL 8 and MariaDB both go through the `mysql` client (driver: mysql2).
  if (client === 'postgres' || client === 'mysql') {
    return {
      connection: {
        client,
        connection: {
          host: env('DATABASE_HOST', '127.0.0.1'),
          port: env.int('DATABASE_PORT', client === 'mysql' ? 3306 : 5432),
          database: env('DATABASE_NAME', 'strapi'),
          user: env('DATABASE_USERNAME', 'strapi'),
          password: env('DATABASE_PASSWORD', 'strapi'),
        },
        pool: { min: 0, max: env.int('DATABASE_POOL_MAX', 10) },
      },
    };
  }
  return {
    connection: {
      client: 'sqlite',
      connection: {
        filename: env('DATABASE_FILENAME', path.join(__dirname, '..', '.tmp', 'data.db')),
      },
      useNullAsDefault: true,
      // WAL: a write no longer waits for an fsync of the whole journal, which every save and
      // every sync state update would otherwise pay (recommended in the plugin's README).
      pool: {
        afterCreate: (conn, done) => {
          conn.pragma('journal_mode = WAL');
          conn.pragma('synchronous = NORMAL');
          done();
        },
      },
    },
  };
};
