/**
 * Import in a real browser: "Import into Strapi" in the dashboard's Remote account card shows the
 * dry run (counts per resource and content type, sample entries, bad objects with their reason),
 * lets the admin choose which of two content types mapped to pinpoints takes them, starts the job,
 * and shows its progress and what it could not import.
 * Saves import-dry-run.png and import-job.png where ./screenshots says.
 *
 *   npx strapi-plugin build && npx jest tests/e2e/import.test.ts --selectProjects e2e
 */
import { promises as fs } from 'node:fs';
import type { Page } from 'playwright-core';
import { addContentTypes } from '../helpers/app-dir';
import { removeDir, startApp, type TestApp } from '../helpers/strapi';
import { PLACE, HAPPENING, ICON } from '../helpers/sync';
import { appWithBuiltAdmin } from './admin-build';
import { ensureSuperAdmin } from '../helpers/admin-api';
import { logIn, openBrowser, type Browser } from './browser';
import { reportFailures, saveShot, SHOTS } from './screenshots';

jest.setTimeout(300_000);

const EMAIL = 'admin@example.com';
const PASSWORD = 'Str0ngPassw0rd!';
const WAIT = 60_000;
// A second content type mapped to pinpoints: the dry run asks which of them takes the objects.
const STAND = 'api::stand.stand';

let app: TestApp;
let page: Page;
reportFailures(() => page);
let browser: Browser;
const ids: Record<string, number> = {};

beforeAll(async () => {
  const appDir = await appWithBuiltAdmin();
  await addContentTypes(appDir, [
    { name: 'stand', attributes: { name: { type: 'string' }, spot: { type: 'json' } } },
  ]);
  app = await startApp({
    http: true,
    serveAdminPanel: true,
    appDir,
    patchConfig: (config) => {
      config['location-content'].config.mappings.push({
        contentType: STAND,
        resource: 'pinpoint',
        fields: { name: 'name', coordinates: 'spot' },
      });
      return config;
    },
  });
  await ensureSuperAdmin(app.strapi, {
    email: EMAIL,
    password: PASSWORD,
    firstname: 'Ada',
    lastname: 'Admin',
  });

  // An account that already has content, one place of it off the map.
  [ids.museum] = app.emulator.seed('categories', [{ name: 'Museums' }]);
  [ids.louvre, ids.orsay, ids.bad] = app.emulator.seed('pinpoints', [
    {
      name: 'Louvre',
      description: '<p>The <strong>largest</strong> art museum</p>',
      latitude: 48.8606,
      longitude: 2.3376,
      tags: ['art'],
      category: ids.museum,
    },
    { name: 'Orsay', latitude: 48.86, longitude: 2.3266, category: ids.museum },
    { name: 'Nowhere', latitude: 48, longitude: 2 },
  ]);
  app.emulator.tamper('pinpoints', ids.bad, { latitude: 123 });
  [ids.night] = app.emulator.seed('events', [
    {
      name: 'Night at the museum',
      pinpoint: ids.louvre,
      dates: [{ start: '2026-05-16T18:00:00.000Z', end: '2026-05-16T23:59:00.000Z' }],
    },
  ]);
  // The walk made at boot was before the seed.
  await app.sync().inventory();

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

test('dry run in a modal, then the job with its progress and its failures', async () => {
  await logIn(page, app.url!, EMAIL, PASSWORD);
  await page.goto(`${app.url}/admin/plugins/location-content`);
  const card = page.getByTestId('inventory');
  await card.getByTestId('import-open').click();

  const plan = page.getByTestId('import-plan');
  await plan.getByText(/^5 remote objects that no entry owns would become entries/).waitFor();
  const pinpoints = plan.getByTestId('import-group-pinpoint');
  await pinpoints.getByText(`3 pinpoint → ${PLACE} · 1 would fail`).waitFor();
  // Two content types take pinpoints: choosing one plans again with its own fields.
  await pinpoints.getByRole('combobox').click();
  await page.getByRole('option', { name: STAND }).click();
  await pinpoints.getByText(`3 pinpoint → ${STAND} · 1 would fail`).waitFor({ timeout: WAIT });
  await pinpoints.getByText('spot: {"lat":48.8606,"lng":2.3376}').waitFor();
  await pinpoints.getByRole('combobox').click();
  await page.getByRole('option', { name: PLACE }).click();
  await pinpoints.getByText(`3 pinpoint → ${PLACE} · 1 would fail`).waitFor({ timeout: WAIT });
  await plan.getByTestId('import-group-category').getByText(`1 category → ${ICON}`).waitFor();
  await plan.getByTestId('import-group-event').getByText(`1 event → ${HAPPENING}`).waitFor();
  const louvre = plan
    .getByTestId('import-sample')
    .filter({ hasText: `Louvre (pinpoint ${ids.louvre})` });
  await louvre.getByText('title: Louvre').waitFor();
  await louvre.getByText(`icon: the entry of category ${ids.museum}`).waitFor();
  await plan.getByText('Not imported: latitude 123 is outside [-90, 90]').waitFor();
  await shot('import-dry-run');

  await page.getByTestId('import-start').click();
  const job = card.getByTestId('import-job');
  await job.getByTestId('import-state').getByText('Imported').waitFor({ timeout: WAIT });
  await job.getByText('5 of 5 objects · 4 imported · 1 failed · 0 skipped').waitFor();
  await job
    .getByTestId('import-issue')
    .getByText(`Nowhere (pinpoint ${ids.bad}): not imported: latitude 123 is outside [-90, 90]`)
    .waitFor();
  // The dashboard's counts follow: the drafts are imported, the icon (no draft & publish) synced.
  await page
    .getByTestId('count-imported')
    .getByText('3', { exact: true })
    .waitFor({ timeout: WAIT });
  await page.getByTestId('count-synced').getByText('1', { exact: true }).waitFor();
  await shot('import-job');

  const places = await app.strapi.documents('api::place.place').findMany({ locale: 'en' });
  expect(places.map((p) => p.title).sort()).toEqual(['Louvre', 'Orsay']);
  const state = await app.sync().stateOf({ contentType: PLACE, documentId: places[0].documentId });
  expect(state).toMatchObject({ status: 'imported', remoteId: expect.any(Number) });
});
