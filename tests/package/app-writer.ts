/**
 * The Strapi app the package is installed into, written here rather than copied from the playground:
 * two content types (one with draft & publish), SQLite, and the plugin configured as the README says.
 */
import { promises as fs, existsSync } from 'node:fs';
import path from 'node:path';
import { PLUGIN_ID } from './config';

const venueSchema = {
  kind: 'collectionType',
  collectionName: 'venues',
  info: { singularName: 'venue', pluralName: 'venues', displayName: 'Venue' },
  options: { draftAndPublish: false },
  attributes: {
    name: { type: 'string', required: true },
    location: { type: 'json' },
  },
};

const landmarkSchema = {
  kind: 'collectionType',
  collectionName: 'landmarks',
  info: { singularName: 'landmark', pluralName: 'landmarks', displayName: 'Landmark' },
  options: { draftAndPublish: true },
  attributes: {
    title: { type: 'string', required: true },
    summary: { type: 'richtext' },
    lat: { type: 'float' },
    lng: { type: 'float' },
  },
};

/** 1x1 transparent PNG. */
const TINY_PNG =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=';

export async function writeApp(appDir: string) {
  const write = async (rel: string, text: string) => {
    await fs.mkdir(path.dirname(path.join(appDir, rel)), { recursive: true });
    await fs.writeFile(path.join(appDir, rel), text);
  };
  await write(
    'package.json',
    JSON.stringify(
      {
        name: 'location-content-package-test-app',
        private: true,
        version: '0.0.0',
        scripts: {
          develop: 'strapi develop',
          start: 'strapi start',
          build: 'strapi build',
          strapi: 'strapi',
        },
        dependencies: {},
        strapi: { uuid: 'location-content-package-test' },
        engines: { node: '>=20.19.0' },
      },
      null,
      2
    ) + '\n'
  );
  await write(
    'config/server.js',
    `module.exports = ({ env }) => ({
  host: env('HOST', '127.0.0.1'),
  port: env.int('PORT', 1337),
  app: { keys: env.array('APP_KEYS', ['packageTestKeyA', 'packageTestKeyB']) },
});
`
  );
  await write(
    'config/admin.js',
    `module.exports = ({ env }) => ({
  auth: { secret: env('ADMIN_JWT_SECRET', 'package-test-admin-jwt-secret') },
  apiToken: { salt: env('API_TOKEN_SALT', 'package-test-api-token-salt') },
  transfer: { token: { salt: env('TRANSFER_TOKEN_SALT', 'package-test-transfer-token-salt') } },
  secrets: { encryptionKey: env('ENCRYPTION_KEY', 'package-test-encryption-key') },
  flags: { nps: false, promoteEE: false },
});
`
  );
  await write(
    'config/database.js',
    `const path = require('path');

module.exports = ({ env }) => ({
  connection: {
    client: 'sqlite',
    connection: { filename: path.join(__dirname, '..', env('DATABASE_FILENAME', '.tmp/data.db')) },
    useNullAsDefault: true,
  },
});
`
  );
  await write(
    'config/middlewares.js',
    `module.exports = [
  'strapi::logger',
  'strapi::errors',
  'strapi::security',
  'strapi::cors',
  'strapi::poweredBy',
  'strapi::query',
  'strapi::body',
  'strapi::session',
  'strapi::favicon',
  'strapi::public',
];
`
  );
  // As the README's Install section says: enabled, credentials from the environment, mappings as code.
  await write(
    'config/plugins.js',
    `module.exports = ({ env }) => ({
  '${PLUGIN_ID}': {
    enabled: true,
    config: {
      baseUrl: env('LOCATION_CONTENT_BASE_URL', 'https://api.getwemap.com'),
      clientId: env('LOCATION_CONTENT_CLIENT_ID'),
      clientSecret: env('LOCATION_CONTENT_CLIENT_SECRET'),
      rateLimit: { requestsPerSecond: 10, concurrency: 4 },
      mappings: [
        { contentType: 'api::venue.venue', resource: 'pinpoint', fields: { name: 'name', coordinates: 'location' } },
        { contentType: 'api::landmark.landmark', resource: 'pinpoint',
          fields: { name: 'title', description: 'summary', latitude: 'lat', longitude: 'lng' } },
      ],
    },
  },
});
`
  );
  await write('src/index.js', `module.exports = {\n  register() {},\n  bootstrap() {},\n};\n`);
  for (const [name, schema] of [
    ['venue', venueSchema],
    ['landmark', landmarkSchema],
  ] as const) {
    const uid = `api::${name}.${name}`;
    await write(
      `src/api/${name}/content-types/${name}/schema.json`,
      JSON.stringify(schema, null, 2) + '\n'
    );
    await write(
      `src/api/${name}/controllers/${name}.js`,
      `const { factories } = require('@strapi/strapi');\n\nmodule.exports = factories.createCoreController('${uid}');\n`
    );
    await write(
      `src/api/${name}/routes/${name}.js`,
      `const { factories } = require('@strapi/strapi');\n\nmodule.exports = factories.createCoreRouter('${uid}');\n`
    );
    await write(
      `src/api/${name}/services/${name}.js`,
      `const { factories } = require('@strapi/strapi');\n\nmodule.exports = factories.createCoreService('${uid}');\n`
    );
  }
  await write('public/uploads/.gitkeep', '');
  // As create-strapi-app gives every app: without it, strapi::favicon logs an ENOENT error for each browser visit.
  await fs.writeFile(path.join(appDir, 'favicon.png'), Buffer.from(TINY_PNG, 'base64'));
  await write('.gitignore', 'node_modules/\n.tmp/\nbuild/\ndist/\n.strapi/\n');
}

/** Nothing above the app may offer a node_modules or a tsconfig.json (the whole point of the temp folder). */
export function ancestorsLeak(appDir: string): string[] {
  const leaks: string[] = [];
  for (let dir = path.dirname(appDir); ; dir = path.dirname(dir)) {
    for (const name of ['node_modules', 'tsconfig.json', 'package.json'])
      if (existsSync(path.join(dir, name))) leaks.push(path.join(dir, name));
    if (path.dirname(dir) === dir) break;
  }
  return leaks;
}
