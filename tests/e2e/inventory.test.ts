/**
 * Onboarding in a real browser: the dashboard walks the remote account, proposes links to the
 * objects already there, the editor picks among two copies of a place, and confirms.
 * Saves inventory.png and link-proposal.png where ./screenshots says.
 *
 *   npx strapi-plugin build && npx jest tests/e2e/inventory.test.ts --selectProjects e2e
 */
import { promises as fs } from 'node:fs';
import type { Page } from 'playwright-core';
import { removeDir, startApp, type TestApp } from '../helpers/strapi';
import { createPlace } from '../helpers/content';
import { PLACE, until } from '../helpers/sync';
import { appWithBuiltAdmin } from './admin-build';
import { ensureSuperAdmin } from '../helpers/admin-api';
import { logIn, openBrowser, type Browser } from './browser';
import { reportFailures, saveShot, SHOTS } from './screenshots';

jest.setTimeout(300_000);

const EMAIL = 'admin@example.com';
const PASSWORD = 'Str0ngPassw0rd!';
const WAIT = 60_000;

let app: TestApp;
let page: Page;
reportFailures(() => page);
let browser: Browser;
const ids: Record<string, number> = {};
const docs: Record<string, string> = {};

beforeAll(async () => {
  const appDir = await appWithBuiltAdmin();
  app = await startApp({
    http: true,
    serveAdminPanel: true,
    appDir,
    patchConfig: (c) => ((c['location-content'].config.syncEnabled = false), c),
  });
  await ensureSuperAdmin(app.strapi, {
    email: EMAIL,
    password: PASSWORD,
    firstname: 'Ada',
    lastname: 'Admin',
  });

  // The account already holds the places, one of them twice, and a place no entry has.
  [ids.louvre, ids.orsay, ids.orsayCopy, ids.rock] = app.emulator.seed('pinpoints', [
    { name: 'Louvre', latitude: 48.8606, longitude: 2.3376 },
    { name: 'Orsay', latitude: 48.86, longitude: 2.3266 },
    { name: 'Orsay', latitude: 48.86, longitude: 2.3266 },
    { name: 'Eiffel Tower', latitude: 48.8584, longitude: 2.2945 },
  ]);
  docs.louvre = (
    await createPlace(app.strapi, {
      title: 'Louvre',
      geo: { lat: 48.8606, lng: 2.3376 },
    })
  ).documentId;
  docs.orsay = (
    await createPlace(app.strapi, {
      title: 'Orsay',
      geo: { lat: 48.86, lng: 2.3266 },
    })
  ).documentId;
  docs.cafe = (
    await createPlace(app.strapi, {
      title: 'Café de Flore',
      geo: { lat: 48.854, lng: 2.3326 },
    })
  ).documentId;

  await fs.mkdir(SHOTS, { recursive: true });
  browser = await openBrowser(WAIT);
  ({ page } = browser);
});

afterAll(async () => {
  await browser?.close();
  await app?.stop();
  if (app) await removeDir(app.appDir);
});

const shot = (name: string) => saveShot(page, name);

test('walk the remote account, then link the existing objects', async () => {
  await logIn(page, app.url!, EMAIL, PASSWORD);

  await page.goto(`${app.url}/admin/plugins/location-content`);
  const section = page.getByTestId('inventory');
  await section.getByText('The remote account has not been walked yet.').waitFor();
  await expect(section.getByTestId('link-open').isDisabled()).resolves.toBe(true);
  await section.getByTestId('inventory-walk').click();
  await section.getByText(/Last complete walk:/).waitFor();
  await section.getByText(/^4 pinpoints, 0 events, 0 categories, 0 lists/).waitFor();
  await shot('inventory');

  // The resync's confirmation warns that the account holds objects no entry owns, and offers to link first.
  await page.getByTestId('resync-button').click();
  await page
    .getByTestId('resync-unowned')
    .getByText(/holds 4 objects that no entry owns/)
    .waitFor();
  await page.getByTestId('resync-link-first').click();
  const proposal = page.getByTestId('link-proposal');
  await proposal
    .getByText('1 to link, 1 to choose, 1 will be created, 1 remote objects match no entry.')
    .waitFor();
  await proposal.getByText(`Louvre → pinpoint ${ids.louvre}`).waitFor();
  await proposal.getByText('Will be created: Café de Flore').waitFor();
  await proposal
    .getByText(`On the remote, matching no entry: Eiffel Tower (pinpoint ${ids.rock})`)
    .waitFor();
  // Orsay is there twice: pick the second copy.
  await page.getByRole('combobox', { name: /Orsay: several remote objects match/ }).click();
  await page.getByRole('option', { name: new RegExp(`pinpoint ${ids.orsayCopy}:`) }).click();
  await shot('link-proposal');
  await page.getByTestId('link-confirm').click();
  await page.getByText(/2 entries linked/).waitFor();

  const stateOf = (documentId: string) => app.sync().stateOf({ contentType: PLACE, documentId });
  await until(
    async () => (await stateOf(docs.orsay))?.remoteId === ids.orsayCopy,
    'Orsay to be linked to the copy picked'
  );
  expect((await stateOf(docs.louvre))?.remoteId).toBe(ids.louvre);
  expect((await stateOf(docs.cafe))?.remoteId ?? null).toBeNull();
});
