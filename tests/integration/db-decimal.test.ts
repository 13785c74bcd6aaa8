/**
 * Coordinates read from a plain `decimal` attribute: PostgreSQL and MySQL/MariaDB store it as
 * numeric(10,2) (about 1 km), so the boot warns, naming the content type, the attribute, the
 * precision and the fix, and the settings' mapping view carries it. SQLite keeps every decimal:
 * no warning there. (The playground itself uses `float`; this app puts `decimal` back.)
 */
import type { MappingView } from '../../shared/contracts/mappings';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { makeAppDir, startApp, stopApp, type TestApp } from '../helpers/strapi';
import { kind } from '../helpers/test-db';

let app: TestApp;

beforeAll(async () => {
  const appDir = await makeAppDir();
  const file = path.join(appDir, 'src', 'components', 'shared', 'geo-point.json');
  const schema = JSON.parse(await fs.readFile(file, 'utf8'));
  schema.attributes.lat.type = 'decimal';
  schema.attributes.lng.type = 'decimal';
  await fs.writeFile(file, JSON.stringify(schema, null, 2));
  app = await startApp({ appDir });
});

afterAll(() => stopApp(app));

test(`coordinates in a plain decimal: ${kind() === 'sqlite' ? 'no warning on SQLite' : `a warning on ${kind()}`}`, async () => {
  const views: MappingView[] = app.strapi.plugin('location-content').service('mappings').list();
  const place = views.find((v) => v.contentType === 'api::place.place');
  if (kind() === 'sqlite') {
    expect(place?.warnings).toEqual([]);
    return;
  }
  expect(place?.active).toBe(true);
  expect(place?.warnings).toHaveLength(2);
  expect(place?.warnings[0]).toBe(
    'api::place.place: latitude reads shared.geo-point.lat, a decimal this database stores with 2 decimals (positions rounded to about 1 km); ' +
      'make it a "float" attribute, or give its column 6 decimals or more (e.g. numeric(10,6))'
  );
  expect(place?.warnings[1]).toMatch(
    /^api::place\.place: longitude reads shared\.geo-point\.lng, /
  );
  // The settings page reads the same view.
  const admin = (await import('../../server/src/controllers/mappings')).mappingsForAdmin(
    app.strapi
  );
  expect(admin.find((m) => m.contentType === 'api::place.place')!.warnings).toEqual(
    place?.warnings
  );
});
