/**
 * APP_KEYS replaced without keeping the old key, in a real browser: the settings page and the
 * dashboard say that the stored client secret cannot be read and what to do; entering it again in
 * the settings page pushes the change that waited meanwhile.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { startEmulator, type EmulatorHandle } from '../../emulator/src';
import { withoutCredentials, ensureSuperAdmin } from '../helpers/admin-api';
import { createPlace } from '../helpers/content';
import { removeDir, startApp, type TestApp } from '../helpers/strapi';
import { PLACE, remoteOf, until } from '../helpers/sync';
import { appWithBuiltAdmin } from './admin-build';
import { logIn, openBrowser, type Browser } from './browser';
import { reportFailures, SHOTS } from './screenshots';

jest.setTimeout(300_000);

const EMAIL = 'admin@example.com';
const PASSWORD = 'Str0ngPassw0rd!';
const WAIT = 60_000;
const TITLE = 'The stored client secret cannot be read';

let emulator: EmulatorHandle;
let appDir: string;
let app: TestApp | undefined;
let browser: Browser;
let page: Page;
reportFailures(() => page);

/** Without admin.secrets.encryptionKey, so that APP_KEYS alone seal the secret. */
const boot = async (appKeys: string) => {
  await app?.stop();
  app = await startApp({
    http: true,
    serveAdminPanel: true,
    appDir,
    emulatorHandle: emulator,
    env: { APP_KEYS: appKeys, ENCRYPTION_KEY: '' },
    patchConfig: withoutCredentials,
  });
};

beforeAll(async () => {
  emulator = await startEmulator({ strict: true });
  appDir = await appWithBuiltAdmin();
  await boot('keyA');
  await ensureSuperAdmin(app!.strapi, {
    email: EMAIL,
    password: PASSWORD,
    firstname: 'Ada',
    lastname: 'Admin',
  });
  const settings = app!.strapi.plugin('location-content').service('settings');
  await settings.credentials.save({
    baseUrl: emulator.baseUrl,
    clientId: emulator.clientId,
    clientSecret: emulator.clientSecret,
  });
  settings.changed();
  const before = await createPlace(app!.strapi, { title: 'Pushed before' });
  await until(() => remoteOf(app!, PLACE, before.documentId), 'the first push');
  await fs.mkdir(SHOTS, { recursive: true });
  browser = await openBrowser(WAIT);
  page = browser.page;
});

afterAll(async () => {
  await browser?.close();
  await app?.stop();
  await emulator?.stop();
  if (appDir) await removeDir(appDir);
});

test('new APP_KEYS: the settings and the dashboard say so; entering the secret resumes', async () => {
  await boot('keyC');
  const waiting = await createPlace(app!.strapi, { title: 'Saved while unreadable' });
  await logIn(page, app!.url!, EMAIL, PASSWORD);

  await page.goto(`${app!.url}/admin/plugins/location-content`);
  await page.getByText(TITLE).waitFor();
  await page
    .getByText(/Enter the client secret again/)
    .first()
    .waitFor();
  await page.screenshot({ path: path.join(SHOTS, 'secret-unreadable-dashboard.png') });

  await page.goto(`${app!.url}/admin/settings/location-content`);
  await page.getByRole('heading', { name: 'API connection' }).waitFor();
  await page.getByText(TITLE).waitFor();
  await page.screenshot({ path: path.join(SHOTS, 'secret-unreadable-settings.png') });
  expect(await remoteOf(app!, PLACE, waiting.documentId)).toBeUndefined();

  await page.getByLabel('Client secret').fill(emulator.clientSecret);
  await page.getByRole('button', { name: 'Save' }).click();
  await page.getByText('Settings saved').first().waitFor();
  await page.getByText(TITLE).waitFor({ state: 'hidden' });
  await until(() => remoteOf(app!, PLACE, waiting.documentId), 'the change that waited', WAIT);

  await page.goto(`${app!.url}/admin/plugins/location-content`);
  await page.getByRole('heading', { name: 'Location Content sync' }).waitFor();
  expect(await page.getByText(TITLE).count()).toBe(0);
  expect(await page.content()).not.toContain(emulator.clientSecret);
});
