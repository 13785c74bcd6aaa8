/**
 * The outbox cannot be written (a statement the database refuses, then the database server
 * itself gone): saves go on, their changes wait in memory, the log gets one line per episode
 * and no SQL, the status report says why and since when; once the database is back, every
 * change is written and pushed.
 *
 * A private MariaDB server (tests/helpers/mariadb.ts) that the test kills and starts again:
 * never the shared server of the integration-mariadb project.
 */
jest.setTimeout(240_000);
import { createPlace } from '../helpers/content';
import type { DbServer } from '../helpers/db-server';
import { ensureMariadb, startServer } from '../helpers/mariadb';
import { adminQuery } from '../helpers/db-admin';
import { startApp, stopApp, type TestApp } from '../helpers/strapi';
import { PLACE, docs, until, workerRounds } from '../helpers/sync';

const found = ensureMariadb();
if (!found.bin) {
  console.warn(`db-outage skipped: ${found.reason}`);
}

(found.bin ? describe : describe.skip)('an outbox that cannot be written', () => {
  let db: DbServer;
  let app: TestApp;
  const sql = (statement: string) =>
    adminQuery(
      { client: 'mysql', host: db.host, port: db.port, user: db.user, password: db.password },
      statement,
      db.database
    );

  beforeAll(async () => {
    db = await startServer(found.bin!);
    app = await startApp({ env: { ...db.env, DATABASE_POOL_MAX: '4' } });
  });

  afterAll(async () => {
    await stopApp(app);
    await db?.stop();
  });

  const pluginLines = () => app.logs.filter((l) => l.includes('[location-content]'));
  const intents = () => app.strapi.plugin('location-content').service('outbox').intents;

  test('bad SQL, then the database down: bounded readable errors, the dashboard says so, no change lost', async () => {
    const { strapi, emulator } = app;
    const places = [];
    for (const title of ['One', 'Two', 'Three']) places.push(await createPlace(strapi, { title }));
    await app.sync().idle();
    expect(
      emulator
        .state()
        .pinpoints.map((p) => p.name)
        .sort()
    ).toEqual(['One', 'Three', 'Two']);
    const before = pluginLines().length;
    // Each try of the buffer's write: knex announces a statement before the server answers it.
    let outboxInserts = 0;
    strapi.db.connection.on('query', (q: { sql: string }) => {
      if (/^insert into .location_content_outbox/i.test(q.sql)) outboxInserts++;
    });

    // Every write to the outbox now fails, as the upsert of a wrong dialect did; the saves themselves work.
    await sql(
      "CREATE TRIGGER lc_refuse_outbox BEFORE INSERT ON location_content_outbox FOR EACH ROW SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'refused by the test'"
    );
    for (const [i, p] of places.entries()) {
      await docs(strapi, PLACE).update({
        documentId: p.documentId,
        data: { title: `Secret title ${i}` },
      });
      await docs(strapi, PLACE).publish({ documentId: p.documentId });
    }
    const report = await until(async () => {
      const r = await app.sync().status();
      return r.recording?.waiting === 3 ? r : null;
    }, 'the status to report the failure');
    expect(report.recording!.reason).toBe('ER_SIGNAL_EXCEPTION: refused by the test');
    expect(Date.parse(report.recording!.since)).toBeLessThanOrEqual(Date.now());

    // Counted, not slept for: the buffer tries the refused write again (after a second) ...
    await until(() => outboxInserts >= 2, 'a second try of the refused outbox write');

    // ... and the database goes away altogether, as a crash: the server writes its redo log once
    // a second (innodb_flush_log_at_trx_commit=0), so the saves' commits go to disk first, or
    // they die with it (FLUSH ENGINE LOGS writes nothing at 0). The buffer's next try then fails
    // on the connection (its reason changes, still one episode); the worker fails a few polls.
    await sql('SET GLOBAL innodb_flush_log_at_trx_commit = 1');
    await sql('FLUSH ENGINE LOGS');
    await db.down();
    await until(
      () => !/refused by the test/.test(intents().failure()?.reason ?? 'refused by the test'),
      'a try of the buffer while the database is down'
    );
    await workerRounds(app, 3);
    await db.up();
    await until(
      () => pluginLines().some((l) => /the outbox can be read again/.test(l)),
      'the worker to read the outbox again'
    );
    const during = pluginLines().slice(before);
    // One line per episode and component (the buffer, the worker, the keep-alive), not one per try.
    expect(during.length).toBeLessThanOrEqual(8);
    expect(during.filter((l) => /changes cannot be recorded/.test(l))).toHaveLength(1);
    // Three polls failed, counted above: the bound alone was sized for eight seconds of them.
    expect(during.filter((l) => /worker: cannot read the outbox/.test(l))).toHaveLength(1);
    for (const line of during) expect(line).not.toMatch(/insert into|select |Secret title/i);

    await sql('DROP TRIGGER lc_refuse_outbox');
    await until(
      () =>
        emulator
          .state()
          .pinpoints.map((p) => p.name)
          .sort()
          .join() === 'Secret title 0,Secret title 1,Secret title 2',
      'every change held in memory to reach the remote',
      60_000
    );
    expect((await app.sync().status()).recording).toBeNull();
    expect(pluginLines().some((l) => /changes are recorded again \(3 written/.test(l))).toBe(true);
    expect(emulator.state().pinpoints).toHaveLength(3);
  });
});
