/**
 * Drift on the sync dashboard in a real browser: the report of a check (with its date and links to
 * the entries) and a repair confirmed from its group. Saves drift.png where ./screenshots says.
 *
 *   npx strapi-plugin build && npx jest --selectProjects e2e -- tests/e2e/drift.test.ts
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { startApp, stopApp, type TestApp } from '../helpers/strapi';
import { createPlace } from '../helpers/content';
import { PLACE, remoteOf, stateOf, until } from '../helpers/sync';
import { appWithBuiltAdmin } from './admin-build';
import { ensureSuperAdmin } from '../helpers/admin-api';
import { logIn, openBrowser, type Browser } from './browser';
import { reportFailures, SHOTS } from './screenshots';

jest.setTimeout(300_000);

const EMAIL = 'admin@example.com';
const PASSWORD = 'Str0ngPassw0rd!';
const WAIT = 60_000;

let app: TestApp;
let page: Page;
reportFailures(() => page);
let browser: Browser;
const docs: Record<string, string> = {};

beforeAll(async () => {
  const appDir = await appWithBuiltAdmin();
  app = await startApp({ http: true, serveAdminPanel: true, appDir });
  await ensureSuperAdmin(app.strapi, {
    email: EMAIL,
    password: PASSWORD,
    firstname: 'Ada',
    lastname: 'Admin',
  });
  for (const title of ['Louvre', 'Orsay', 'Rodin'])
    docs[title] = (await createPlace(app.strapi, { title })).documentId;
  await app.sync().idle();
  // Behind the plugin's back: one deleted, one renamed in the portal, one added by a script.
  const { access_token } = app.emulator.issueToken();
  const call = (method: string, p: string, body?: unknown) =>
    fetch(`${app.emulator.baseUrl}${p}`, {
      method,
      headers: { Authorization: `Bearer ${access_token}`, 'Content-Type': 'application/json' },
      body: body ? JSON.stringify(body) : undefined,
    });
  await call('DELETE', `/v3.0/pinpoints/${(await stateOf(app, PLACE, docs.Louvre))!.remoteId}`);
  await call('PUT', `/v3.0/pinpoints/${(await stateOf(app, PLACE, docs.Orsay))!.remoteId}`, {
    name: 'Musée d’Orsay (portal)',
  });
  app.emulator.create('pinpoints', { name: 'Added by a script', latitude: 48.86, longitude: 2.34 });

  await fs.mkdir(SHOTS, { recursive: true });
  browser = await openBrowser(WAIT);
  ({ page } = browser);
});

afterAll(async () => {
  await browser?.close();
  await stopApp(app, { settle: true });
});

test('check the remote: the report with its date and links to the entries', async () => {
  await logIn(page, app.url!, EMAIL, PASSWORD);

  await page.goto(`${app.url}/admin/plugins/location-content`);
  const section = page.getByTestId('drift-section');
  await section.getByText('The remote has not been checked yet.').waitFor();
  await section.getByTestId('drift-check').click();
  await section
    .getByTestId('drift-date')
    .getByText(/^Checked /)
    .waitFor();

  const missing = section.getByTestId('drift-group-missing');
  await missing.getByText('Missing on the remote · 1').waitFor();
  const link = missing.getByRole('link', { name: 'Louvre' });
  expect(await link.getAttribute('href')).toContain(
    `/content-manager/collection-types/${PLACE}/${docs.Louvre}`
  );
  const changed = section.getByTestId('drift-group-changed');
  await changed.getByText('Changed on the remote · 1').waitFor();
  await changed.getByText('Orsay → Musée d’Orsay (portal)').waitFor();
  await section
    .getByTestId('drift-group-notOurs')
    .getByText(/Added by a script/)
    .waitFor();
  await page.mouse.move(0, 0);
  await section.screenshot({ path: path.join(SHOTS, 'drift.png'), animations: 'disabled' });
});

test('a repair of one group, confirmed, goes through the queue', async () => {
  const section = page.getByTestId('drift-section');
  const before = (await stateOf(app, PLACE, docs.Louvre))!.remoteId;
  await section.getByTestId('drift-repair-missing').click();
  await page
    .getByRole('alertdialog')
    .getByText('Each entry is pushed again: its object, gone from the remote, is created again.')
    .waitFor();
  await page.getByTestId('drift-repair-confirm-missing').click();
  await page.getByText('1 queued · 0 deleted · 0 left alone · 0 failed').first().waitFor();
  await until(
    async () =>
      (await stateOf(app, PLACE, docs.Louvre))?.remoteId !== before &&
      (await remoteOf(app, PLACE, docs.Louvre)),
    'the pinpoint created again',
    WAIT
  );
  // The other groups were not touched: Orsay's rename and the foreign object stay on the remote.
  expect(await remoteOf(app, PLACE, docs.Orsay)).toMatchObject({ name: 'Musée d’Orsay (portal)' });
  expect(app.emulator.state().pinpoints.some((p) => p.name === 'Added by a script')).toBe(true);
});
