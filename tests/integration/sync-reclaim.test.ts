jest.setTimeout(60_000);
import { startApp, type TestApp, stopApp } from '../helpers/strapi';
import { createPlace } from '../helpers/content';
import { OUTBOX_UID } from '../../server/src/sync/shared/tables';
import type { OutboxRow } from '../../server/src/sync/outbox';
import { docs, PLACE, stateOf, until } from '../helpers/sync';

/**
 * An entry changed while it was pushed stays in the outbox, its lease cleared by the completion.
 * A pump that claims it again before the ended push has left the worker's in-flight set must not
 * drop it: else nobody pushes the newer version until that claim's lease (leaseMs) runs out.
 */
let app: TestApp;

// leaseMs stays at its default (a minute): the newer version is expected long before that.
beforeAll(async () => {
  app = await startApp();
});

afterAll(() => stopApp(app));

test('a row claimed again while its ended push is still in flight is pushed at once', async () => {
  const { strapi, emulator } = app;
  const plugin = strapi.plugin('location-content');
  const outbox = plugin.service('outbox');
  const worker = plugin.service('worker');
  await app.sync().idle();

  emulator.scriptFaults([{ kind: 'hold', method: 'POST', pathPrefix: '/v3.0/pinpoints' }]);
  const claim = jest.spyOn(outbox, 'claim');
  const claimsOf = async (id: number) =>
    (await Promise.all(claim.mock.results.map((r) => r.value as Promise<OutboxRow[]>)))
      .flat()
      .filter((row) => row.id === id).length;

  // After its real completion, the push of the changed entry waits until the worker has claimed
  // its row again: the window between the completion and the end of the push, held open.
  const complete = outbox.complete;
  let reclaimed = false;
  const completeSpy = jest
    .spyOn(outbox, 'complete')
    .mockImplementation(async (...args: unknown[]) => {
      const [row, windowMs] = args as [OutboxRow, number?];
      const done = await complete(row, windowMs);
      if (!done && !reclaimed) {
        const before = await claimsOf(row.id);
        worker.wake();
        await until(
          async () => (await claimsOf(row.id)) > before,
          'the row to be claimed again',
          20_000
        );
        reclaimed = true;
      }
      return done;
    });

  try {
    const place = await createPlace(strapi, { title: 'First title', geo: { lat: 46.2, lng: 6.1 } });
    await until(() => emulator.held() === 1, 'the POST to reach the remote');
    await docs(strapi, PLACE).update({
      documentId: place.documentId,
      data: { title: 'Second title' },
    });
    await docs(strapi, PLACE).publish({ documentId: place.documentId });
    // The change is in the outbox (a newer generation of the leased row) before the POST answers.
    await until(
      async () =>
        Number(
          (
            await strapi.db
              .query(OUTBOX_UID)
              .findOne({ where: { entryDocumentId: place.documentId } })
          )?.generation ?? 0
        ) > 0,
      'the change to reach the outbox'
    );
    emulator.release();

    await until(() => reclaimed, 'the push to end while its row is claimed again', 30_000);
    // Seconds, not the minute of the lease.
    await until(
      () => emulator.state().pinpoints.find((p) => p.name === 'Second title'),
      'the newer version on the remote',
      10_000
    );
    expect(emulator.state().pinpoints.filter((p) => p.latitude === 46.2)).toHaveLength(1);
    await app.sync().idle();
    expect(await stateOf(app, PLACE, place.documentId)).toMatchObject({
      status: 'synced',
      queued: false,
    });
  } finally {
    emulator.release();
    claim.mockRestore();
    completeSpy.mockRestore();
  }
});
