/**
 * SQLite without planner statistics reads a component populate through the index on the join
 * table's `field` column, which every row matches, instead of the one on `entity_id`: a resync's
 * reads then cost in proportion to the table (23 ms per hundred entries at 100,000 places). With
 * `sqliteOptimize` on, the plugin gathers the statistics at boot and when a resync starts (PRAGMA
 * optimize); off, it leaves the host's database as it is.
 */
jest.setTimeout(300_000);
import { startEmulator, type EmulatorHandle } from '../../emulator/src';
import { makeAppDir, removeDir } from '../helpers/app-dir';
import { startChildApp, type ChildApp } from '../helpers/child-app';

describe('SQLite planner statistics', () => {
  let emu: EmulatorHandle;
  let app: ChildApp;
  let appDir: string;

  beforeAll(async () => {
    emu = await startEmulator({ strict: true });
    appDir = await makeAppDir();
    app = await startChildApp({
      appDir,
      emulator: { baseUrl: emu.baseUrl, clientId: emu.clientId, clientSecret: emu.clientSecret },
      patch: {
        config: { syncEnabled: false, rateLimit: { requestsPerSecond: 100_000, concurrency: 8 } },
      },
    });
  });

  afterAll(async () => {
    await app?.stop().catch(() => app.kill());
    await emu?.stop();
    await removeDir(appDir);
  });

  /** The plan of the query Strapi's populate of the `geo` component of places makes. */
  const componentPlan = () =>
    app.run(async (strapi) => {
      const knex = strapi.db.connection;
      const ids = (await knex('places').select('id').orderBy('id', 'desc').limit(100)).map(
        (r: { id: number }) => r.id
      );
      const rows = await knex.raw(
        `explain query plan select distinct t1."order", t0.*, t1.entity_id from components_shared_geo_points as t0
         left join places_cmps as t1 on t0.id = t1.cmp_id and t1.field = ?
         where t1.entity_id in (${ids.map(() => '?').join(',')}) order by t1."order" asc`,
        ['geo', ...ids]
      );
      return (rows as Array<{ detail: string }>).map((r) => r.detail).join('; ');
    });

  const statistics = () =>
    app.run(
      async (strapi) =>
        (
          await strapi.db.connection.raw(
            "select count(*) as n from sqlite_master where name = 'sqlite_stat1'"
          )
        )[0].n as number
    );

  it('reads the components of a page of places through the entity index once a resync has started with sqliteOptimize', async () => {
    await app.call('seedPlaces', { count: 3000, prefix: 'Planned' });
    // Thousands of rows imported after the boot: no statistics describe them yet.
    expect(await componentPlan()).toMatch(/places_field_idx/);
    await app.run(async (strapi) => {
      strapi.config.set('plugin::location-content.syncEnabled', true);
      return true;
    });
    // Off by default: the boot left the host's database without statistics.
    expect(await statistics()).toBe(0);
    await app.run(async (strapi) => {
      strapi.config.set('plugin::location-content.sqliteOptimize', true);
      return true;
    });
    await app.call('resync');
    const plan = await componentPlan();
    expect(await statistics()).toBe(1);
    expect(plan).not.toMatch(/places_field_idx/);
    expect(plan).toMatch(
      /SEARCH t1 USING (COVERING )?INDEX places_(uq|entity_fk) \(entity_id=\?\)/
    );
    await app.call('idle', { timeoutMs: 120_000 });
    expect(emu.state().pinpoints).toHaveLength(3000);
  });
});
