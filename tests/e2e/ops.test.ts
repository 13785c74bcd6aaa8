/**
 * Running it with confidence, in a real browser: the push history and the map link in the side panel,
 * the target account on the dashboard, and the banner of an environment that does not push on every
 * page of the plugin. Screenshots go where ./screenshots says (docs/screenshots with npm run docs:screenshots).
 *
 *   npx strapi-plugin build && npx jest --selectProjects e2e -- tests/e2e/ops.test.ts
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { startAlertReceiver, type AlertReceiver } from '../helpers/alert-receiver';
import { startApp, stopApp, type TestApp } from '../helpers/strapi';
import { createPlace } from '../helpers/content';
import { docs, PLACE, setPluginConfig, stateOf } from '../helpers/sync';
import { appWithBuiltAdmin } from './admin-build';
import { logIn, openBrowser, type Browser } from './browser';
import { SHOTS } from './screenshots';

jest.setTimeout(300_000);

const EMAIL = 'ops@example.com';
const PASSWORD = 'Str0ngPassw0rd!';
const LIVEMAP = 'https://livemap.getwemap.com/#/pinpoints/{id}';

let app: TestApp;
let page: Page;
let browser: Browser;
let placeId: string;
let receiver: AlertReceiver;

const shot = async (name: string, target?: { screenshot: Page['screenshot'] }) => {
  const closeBanner = page.getByRole('button', { name: 'Close the banner' });
  if (await closeBanner.isVisible()) await closeBanner.click();
  await page.mouse.move(0, 0);
  await (target ?? page).screenshot({
    path: path.join(SHOTS, `${name}.png`),
    animations: 'disabled',
  });
};

const entryUrl = () =>
  `${app.url}/admin/content-manager/collection-types/${PLACE}/${placeId}?plugins[i18n][locale]=en`;

beforeAll(async () => {
  receiver = await startAlertReceiver();
  const webhook = receiver.url();
  const appDir = await appWithBuiltAdmin();
  app = await startApp({
    http: true,
    serveAdminPanel: true,
    appDir,
    patchConfig: (config) => {
      const lc = config['location-content'].config;
      lc.viewUrl = { pinpoint: LIVEMAP };
      lc.pushIn = ['production', 'test'];
      lc.alerts = { webhook };
      return config;
    },
  });
  const superAdmin = await app.strapi.service('admin::role').getSuperAdmin();
  await app.strapi.service('admin::user').create({
    email: EMAIL,
    firstname: 'Otto',
    lastname: 'Ops',
    password: PASSWORD,
    isActive: true,
    roles: [superAdmin.id],
  } as any);

  // A history of three attempts: created, refused by the remote (400), updated.
  placeId = (await createPlace(app.strapi, { title: 'Louvre', geo: { lat: 48.8606, lng: 2.3376 } }))
    .documentId;
  await app.sync().idle();
  app.emulator.scriptFaults([
    {
      kind: 'status',
      status: 400,
      body: { name: ['Ensure this field has no more than 5 characters.'] },
      method: 'PUT',
      pathPrefix: '/v3.0/pinpoints',
    },
  ]);
  await docs(app.strapi, PLACE).update({ documentId: placeId, data: { title: 'Musée du Louvre' } });
  await docs(app.strapi, PLACE).publish({ documentId: placeId });
  await app.sync().idle();
  await docs(app.strapi, PLACE).update({ documentId: placeId, data: { title: 'Louvre' } });
  await docs(app.strapi, PLACE).publish({ documentId: placeId });
  await app.sync().idle();

  await fs.mkdir(SHOTS, { recursive: true });
  browser = await openBrowser(60_000);
  ({ page } = browser);
  // The admin build alone can take several minutes on a shared machine.
}, 900_000);

afterAll(async () => {
  await browser?.close();
  await stopApp(app, { settle: true });
  await receiver?.close();
});

test('log in', async () => {
  await logIn(page, app.url!, EMAIL, PASSWORD);
});

test('side panel: the push history, newest first, and the link to the object on the map', async () => {
  const remoteId = (await stateOf(app, PLACE, placeId))!.remoteId;
  await page.goto(entryUrl());
  const panel = page.getByTestId('location-content-panel');
  const history = panel.getByTestId('location-content-history');
  await history.getByText('Push history').waitFor();
  const lines = await history.locator(':scope > div').allInnerTexts();
  expect(lines).toHaveLength(3);
  expect(lines[0]).toMatch(/^Update\s+done/);
  expect(lines[1]).toMatch(/^Push\s+HTTP 400/);
  expect(lines[1]).toContain('Ensure this field has no more than 5 characters.');
  expect(lines[2]).toMatch(/^Create\s+done/);
  expect(await panel.getByTestId('location-content-view-url').getAttribute('href')).toBe(
    LIVEMAP.replace('{id}', String(remoteId))
  );
  expect(await panel.getByTestId('location-content-environment-banner').count()).toBe(0);
  await shot('entry-history', panel);
});

test('side panel: "Preview payload" shows the draft and the published version field by field; nothing is sent', async () => {
  await docs(app.strapi, PLACE).update({ documentId: placeId, data: { title: 'Louvre (draft)' } });
  const before = app.emulator.requests().length;
  await page.goto(entryUrl());
  await page.getByTestId('location-content-panel').getByTestId('preview-payload').click();
  const draft = page.getByTestId('preview-draft');
  const published = page.getByTestId('preview-published');
  await draft.getByText('Louvre (draft)', { exact: true }).waitFor();
  await published.getByText('Louvre', { exact: true }).waitFor();
  await published.getByText('latitude', { exact: true }).waitFor();
  await shot('entry-preview');
  await page.getByRole('button', { name: 'Close' }).last().click();
  await draft.waitFor({ state: 'hidden' });
  expect(app.emulator.requests().slice(before)).toEqual([]);
});

test('dashboard: names the environment, the target host and the end of the client id', async () => {
  await page.goto(`${app.url}/admin/plugins/location-content`);
  const target = page.getByTestId('location-content-target');
  await target.waitFor();
  const host = new URL(app.emulator.baseUrl).host;
  expect(await target.textContent()).toBe(
    `Environment test · pushes to ${host} · client id ending in ${app.emulator.clientId.slice(-4)}`
  );
  expect(await page.getByTestId('location-content-environment-banner').count()).toBe(0);
  expect(await page.content()).not.toContain(app.emulator.clientSecret);
});

test('outside pushIn, every page of the plugin shows the banner, and a publish waits in the queue', async () => {
  setPluginConfig(app.strapi, 'pushIn', ['production']);
  const banner = page.getByTestId('location-content-environment-banner');
  const title = 'Environment "test": nothing is pushed';

  await page.goto(`${app.url}/admin/settings/location-content`);
  await banner.getByText(title).waitFor();
  await banner
    .getByText('pushes go out only in production (config pushIn)', { exact: false })
    .waitFor();
  await shot('settings-environment');

  const before = app.emulator.requests().length;
  await docs(app.strapi, PLACE).update({
    documentId: placeId,
    data: { title: 'Louvre (staging)' },
  });
  await docs(app.strapi, PLACE).publish({ documentId: placeId });

  await page.goto(`${app.url}/admin/plugins/location-content`);
  await banner.getByText(title).waitFor();
  await page.getByTestId('queue-depth').filter({ hasText: '1' }).waitFor();
  await shot('dashboard-environment');

  await page.goto(entryUrl());
  await page
    .getByTestId('location-content-panel')
    .getByTestId('location-content-environment-banner')
    .getByText(title)
    .waitFor();
  await shot('entry-environment', page.getByTestId('location-content-panel'));
  expect(
    app.emulator
      .requests()
      .slice(before)
      .filter((r: any) => r.method !== 'GET' && !r.path.startsWith('/v3.0/oauth2/'))
  ).toEqual([]);
});

test('settings: "Send test alert" posts a test alert to the webhook', async () => {
  await page.goto(`${app.url}/admin/settings/location-content`);
  await page.getByTestId('test-alert').click();
  await page.getByText('Test alert sent.').first().waitFor();
  // the 400 of the setup failed an entry for good: that alert came first
  expect(receiver.alerts.map((a) => a.kind)).toEqual(['failed', 'test']);
  expect(receiver.alerts[1].dashboardUrl).toMatch(/\/admin\/plugins\/location-content$/);
  await shot('settings-test-alert');
});
