/**
 * Key rotation as Strapi's docs advise it (a new key in front of APP_KEYS, the old one removed
 * later) keeps the saved client secret readable and the sync pushing; a secret saved by 0.1 is
 * sealed again at boot. When no key of the app opens it: one log line, one credentials alert, the
 * status and the settings say so, changes wait; entering the secret again pushes them.
 * The app has no admin.secrets.encryptionKey here, so that APP_KEYS alone seal the secret.
 */
jest.setTimeout(300_000);
import { startEmulator, type EmulatorHandle } from '../../emulator/src';
import { withoutCredentials } from '../helpers/admin-api';
import { startAlertReceiver, type AlertReceiver } from '../helpers/alert-receiver';
import { sealV1 } from '../helpers/crypto';
import { createPlace } from '../helpers/content';
import { makeAppDir, removeDir, startApp, strapiGlobal, type TestApp } from '../helpers/strapi';
import { CLI_RUN } from '../../server/src/run-mode';
import { seal } from '../../server/src/settings/crypto';
import { PLACE, docs, remoteOf, until } from '../helpers/sync';

let emulator: EmulatorHandle;
let appDir: string;
let app: TestApp | undefined;
let receiver: AlertReceiver;
let documentId: string;

const boot = async (appKeys: string) => {
  await app?.stop();
  app = await startApp({
    appDir,
    emulatorHandle: emulator,
    env: { APP_KEYS: appKeys, ENCRYPTION_KEY: '' },
    patchConfig: (config) => {
      withoutCredentials(config);
      config['location-content'].config.alerts = { webhook: receiver.url(), intervalMinutes: 60 };
      return config;
    },
  });
  return app;
};

const pluginStore = () => app!.strapi.store({ type: 'plugin', name: 'location-content' });
const storedSecret = async () =>
  ((await pluginStore().get({ key: 'settings' })) as { clientSecret?: string } | null)
    ?.clientSecret;
const settings = () => app!.strapi.plugin('location-content').service('settings');
const alerts = () => receiver.alerts;
const unreadableLines = () => app!.logs.filter((l) => /client secret cannot be read/.test(l));

const rename = async (title: string) => {
  await docs(app!.strapi, PLACE).update({ documentId, data: { title } });
  await docs(app!.strapi, PLACE).publish({ documentId });
};
const remoteName = async () => (await remoteOf(app!, PLACE, documentId))?.name;

beforeAll(async () => {
  receiver = await startAlertReceiver();
  emulator = await startEmulator({ strict: true });
  appDir = await makeAppDir();
});

afterAll(async () => {
  await app?.stop();
  await emulator?.stop();
  await receiver?.close();
  if (appDir) await removeDir(appDir);
});

test('a secret saved by 0.1 is sealed again at boot and keeps pushing', async () => {
  await boot('keyA');
  await pluginStore().set({
    key: 'settings',
    value: {
      baseUrl: emulator.baseUrl,
      clientId: emulator.clientId,
      clientSecret: sealV1(emulator.clientSecret, ['keyA']),
    },
  });
  await boot('keyA');
  expect(await storedSecret()).toMatch(/^v2:/);
  documentId = (await createPlace(app!.strapi, { title: 'Before rotation' })).documentId;
  await until(async () => (await remoteName()) === 'Before rotation', 'the first push');
});

test('a key put in front of APP_KEYS, then the old one removed: still pushing', async () => {
  const before = await storedSecret();
  await boot('keyB,keyA');
  const after = await storedSecret();
  expect(after).not.toBe(before);
  expect((await app!.sync().status()).credentialsError).toBeNull();
  await rename('After adding a key');
  await until(async () => (await remoteName()) === 'After adding a key', 'a push');

  await boot('keyB');
  expect(await storedSecret()).toBe(after);
  await rename('After removing the old key');
  await until(async () => (await remoteName()) === 'After removing the old key', 'a push');
  expect(unreadableLines()).toEqual([]);
  expect(alerts()).toEqual([]);
});

test('the boot re-seal never writes over a save made meanwhile, and the CLI does not re-seal', async () => {
  const strapi = app!.strapi;
  const table = () =>
    strapi.db
      .connection('strapi_core_store_settings')
      .where({ key: 'plugin_location-content_settings' });
  const value = async () => JSON.parse((await table().first()).value);
  await pluginStore().set({
    key: 'settings',
    value: { ...(await value()), clientSecret: sealV1(emulator.clientSecret, ['keyB']) },
  });
  // Another instance saves a secret between the re-seal's read and its write.
  const savedMeanwhile = seal(emulator.clientSecret, { appKeys: ['keyB'] });
  const query = strapi.db.query.bind(strapi.db);
  type Query = ReturnType<typeof query>;
  const spy = jest.spyOn(strapi.db, 'query').mockImplementation((uid) => {
    const q = query(uid);
    if (uid !== 'strapi::core-store') return q;
    const write =
      <P>(call: (params: P) => Promise<unknown>) =>
      async (params: P): Promise<unknown> => {
        await table().update({
          value: JSON.stringify({ ...(await value()), clientSecret: savedMeanwhile }),
        });
        return call(params);
      };
    return {
      ...q,
      update: write(q.update.bind(q)),
      updateMany: write(q.updateMany.bind(q)),
    } as Query;
  });
  try {
    expect(await settings().credentials.reseal()).toBe(false);
  } finally {
    spy.mockRestore();
  }
  expect(await storedSecret()).toBe(savedMeanwhile);

  // A CI job's keys need not be the servers': the CLI's boot leaves the stored secret as it is.
  const stale = seal(emulator.clientSecret, { appKeys: ['keyB'] });
  await pluginStore().set({ key: 'settings', value: { ...(await value()), clientSecret: stale } });
  strapiGlobal()[CLI_RUN] = {};
  try {
    await boot('keyD,keyB');
  } finally {
    delete strapiGlobal()[CLI_RUN];
  }
  expect(await storedSecret()).toBe(stale);
  expect((await app!.sync().status()).credentialsError).toBeNull();

  // Nor does it raise the credentials alert when its keys open nothing: it says so in its output.
  strapiGlobal()[CLI_RUN] = {};
  try {
    await boot('keyE');
  } finally {
    delete strapiGlobal()[CLI_RUN];
  }
  expect((await app!.sync().status()).credentialsError).toMatch(/cannot be read/);
  await new Promise((r) => setTimeout(r, 1_000));
  expect(alerts()).toEqual([]);
});

test('no key opens it: said once, everywhere; entering it again pushes what waited', async () => {
  await boot('keyC');
  await rename('Changed while unreadable');
  const message = /stored client secret cannot be read with this app's keys.*enter it again/;
  // Each round of the worker asks for the credentials (canPush): four rounds, woken rather than
  // waited for at its poll, each one a try to open the secret that must not log again.
  const rounds = jest.spyOn(settings(), 'canPush');
  for (let i = 0; i < 4; i++) {
    const report = await app!.sync().status();
    expect(report.configured).toBe(false);
    expect(report.credentialsError).toMatch(message);
    const view = await settings().credentials.publicView();
    expect(view).toMatchObject({ secretUnreadable: true, secretSet: false, configured: false });
    const asked = rounds.mock.calls.length;
    app!.strapi.plugin('location-content').service('worker').wake();
    await until(() => rounds.mock.calls.length > asked, 'a round of the worker');
  }
  rounds.mockRestore();
  expect(unreadableLines()).toHaveLength(1);
  expect(await remoteName()).toBe('After removing the old key');
  await until(() => alerts().length > 0, 'the credentials alert');
  expect(alerts()).toHaveLength(1);
  expect(alerts()[0]).toMatchObject({ kind: 'credentials' });
  expect(alerts()[0].text).toMatch(message);

  await settings().credentials.save({ clientSecret: emulator.clientSecret });
  settings().changed();
  await until(async () => (await remoteName()) === 'Changed while unreadable', 'the waiting push');
  const report = await app!.sync().status();
  expect(report).toMatchObject({ configured: true, credentialsError: null });
  expect(await settings().credentials.publicView()).toMatchObject({ secretUnreadable: false });
  expect(unreadableLines()).toHaveLength(1);
  expect(alerts()).toHaveLength(1);
  for (const line of app!.logs) expect(line).not.toContain(emulator.clientSecret);
});
