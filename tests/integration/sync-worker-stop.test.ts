jest.setTimeout(60_000);
import { startApp, type TestApp, stopApp } from '../helpers/strapi';
import { createPlace } from '../helpers/content';
import { OUTBOX_UID } from '../../server/src/sync/shared/tables';
import { mark, PLACE, stateOf, until, writes } from '../helpers/sync';

/**
 * A stop that comes while the worker's claim query runs: the rows that claim takes are given back
 * before stop() resolves, and nothing is pushed after it (else they stay leased, and a restart
 * waits out the lease for them).
 */
let app: TestApp;

beforeAll(async () => {
  app = await startApp();
});

afterAll(() => stopApp(app));

test('rows claimed while the worker stops are released, not pushed', async () => {
  const { strapi, emulator } = app;
  const plugin = strapi.plugin('location-content');
  const worker = plugin.service('worker');
  const outbox = plugin.service('outbox');
  await app.sync().idle();
  await worker.stop();

  const since = mark(emulator);
  const place = await createPlace(strapi, { title: 'Claimed while stopping' });
  const row = () =>
    strapi.db.query(OUTBOX_UID).findOne({ where: { entryDocumentId: place.documentId } });
  await until(row, 'the intent in the outbox');

  // The next claim waits at a gate until stop() has begun; then it runs for real.
  const claim = outbox.claim;
  let entered!: () => void;
  const inClaim = new Promise<void>((resolve) => (entered = resolve));
  let open!: () => void;
  const gate = new Promise<void>((resolve) => (open = resolve));
  let claimed: Promise<unknown> | undefined;
  outbox.claim = (...args: unknown[]) => {
    outbox.claim = claim;
    entered();
    claimed = gate.then(() => claim(...args));
    return claimed;
  };
  worker.start();
  await inClaim;
  const stopping = worker.stop();
  open();
  await claimed;
  await stopping;

  expect(await row()).toMatchObject({ leaseOwner: null, leaseUntil: null });
  expect(writes(emulator, since)).toHaveLength(0);

  worker.start();
  await app.sync().idle();
  expect(writes(emulator, since)).toHaveLength(1);
  expect(await stateOf(app, PLACE, place.documentId)).toMatchObject({ status: 'synced' });
});
