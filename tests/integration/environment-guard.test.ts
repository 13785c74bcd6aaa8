/**
 * `pushIn`: outside the environments it names, changes are recorded and wait in the queue (as with
 * `syncEnabled: false`); nothing reaches the remote; the admin answers say so, and name the target account.
 */
import { startApp, stopApp, type TestApp } from '../helpers/strapi';
import { createPlace } from '../helpers/content';
import {
  mark,
  PLACE,
  remoteOf,
  setPluginConfig,
  stateOf,
  workerRounds,
  writes,
} from '../helpers/sync';

let app: TestApp;

beforeAll(async () => {
  app = await startApp({
    patchConfig: (config) => {
      config['location-content'].config.pushIn = ['production'];
      return config;
    },
  });
});

afterAll(() => stopApp(app));

test('a published change is recorded, not pushed, and goes out once the environment may push', async () => {
  // jest's NODE_ENV, which the config leaves out
  expect(process.env.NODE_ENV).toBe('test');
  const since = mark(app.emulator);
  const place = await createPlace(app.strapi, { title: 'Staging only' });
  const status = await app.sync().status();
  expect(status.queue.depth).toBe(1);
  expect(status.environment).toEqual({ name: 'test', pushIn: ['production'], pushing: false });
  expect(status.target).toEqual({
    host: new URL(app.emulator.baseUrl).host,
    clientIdLast4: app.emulator.clientId.slice(-4),
  });
  // Several rounds of the worker (it polls every second): still nothing sent.
  await workerRounds(app);
  expect(writes(app.emulator, since)).toEqual([]);
  const waiting = await app.sync().status();
  expect(waiting.queue.depth).toBe(1);
  // Never pushed, queued: pending on the dashboard as in its side panel (one word for both).
  expect(waiting.counts.pending).toBe(1);
  expect(
    waiting.byContentType.find((t: { contentType: string }) => t.contentType === PLACE)?.counts
      .pending
  ).toBe(1);
  expect((await stateOf(app, PLACE, place.documentId))?.status).toBe('pending');
  expect((await stateOf(app, PLACE, place.documentId))?.queued).toBe(true);

  setPluginConfig(app.strapi, 'pushIn', ['production', 'test']);
  await app.sync().idle();
  expect((await remoteOf(app, PLACE, place.documentId))?.name).toBe('Staging only');
  const pushed = await app.sync().status();
  expect(pushed.environment.pushing).toBe(true);
  expect(pushed.counts).toMatchObject({ pending: 0, synced: 1 });
});
