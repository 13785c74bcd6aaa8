/**
 * The admin panel in a real browser: headless chromium on the playground's built admin, served by the
 * real Strapi with the emulator as remote. Saves screenshots of each page to tests/.artifacts/screenshots/
 * (ignored by git); `npm run docs:screenshots` runs it with SCREENSHOTS_DIR=docs/screenshots to refresh
 * the README's pictures.
 *
 *   npx strapi-plugin build && npx jest --selectProjects e2e
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { BrowserContext, Locator, Page } from 'playwright-core';
import type { PlaygroundConfig } from '../helpers/app-dir';
import { startApp, stopApp, type TestApp } from '../helpers/strapi';
import { createPlace } from '../helpers/content';
import { appWithBuiltAdmin } from './admin-build';
import { ensureSuperAdmin } from '../helpers/admin-api';
import { logIn, openBrowser, type Browser } from './browser';
import { reportFailures, saveShot, SHOTS } from './screenshots';

// jest 30 ignores testTimeout inside a project entry; the admin build alone may take over a minute.
jest.setTimeout(300_000);

const EMAIL = 'admin@example.com';
const PASSWORD = 'Str0ngPassw0rd!';
/** Waits in the browser: generous, the machine is shared; nothing here asserts a duration. */
const WAIT = 60_000;

/**
 * Credentials are entered in the Settings page, so the playground's env credentials are removed. The queue
 * is slowed down to watch a resync progress, and one mapping points to a content type that does not exist
 * so the settings page shows how a broken mapping looks.
 */
const patchConfig = (config: PlaygroundConfig) => {
  const lc = config['location-content'].config;
  delete lc.baseUrl;
  delete lc.clientId;
  delete lc.clientSecret;
  lc.rateLimit = { requestsPerSecond: 4, concurrency: 1 };
  lc.mappings.push({
    contentType: 'api::article.article',
    resource: 'pinpoint',
    fields: { name: 'title' },
  });
  return config;
};

const PLACES = [
  'Louvre',
  'Orsay',
  'Pompidou',
  'Rodin',
  'Orangerie',
  'Cluny',
  'Carnavalet',
  'Picasso',
  'Branly',
  'Guimet',
  'Marmottan',
  'Grand Palais',
  'Petit Palais',
  'Jacquemart-André',
  'Arts et Métiers',
  'Quai Branly',
  'Palais de Tokyo',
  'Cognacq-Jay',
  'Bourdelle',
  'Zadkine',
];

let app: TestApp;
let context: BrowserContext;
let page: Page;
reportFailures(() => page);
let browser: Browser;
let brokenId: string;

const shot = (name: string) => saveShot(page, name);

/**
 * Lets the Content Manager draw what plugins add: it does so from requestIdleCallback, and headless Chromium
 * grants no idle time after some input until a frame is drawn (a visible window always draws). Checks that
 * something is absent run after this, so they do not pass just because it was not drawn yet.
 */
const settle = async () => {
  await page.screenshot();
  await page.screenshot();
};

/** Waits for what a plugin draws on a page just opened, drawing a frame now and then (see settle). */
const drawn = async (locator: Locator) => {
  for (const end = Date.now() + WAIT; ;) {
    try {
      return await locator.waitFor({ timeout: 5_000 });
    } catch (err) {
      if (Date.now() > end) throw err;
      await page.screenshot();
    }
  }
};

/** Toasts fade by themselves; screenshots wait for them to be gone. */
const toastGone = (text: string | RegExp) =>
  page.getByText(text).first().waitFor({ state: 'hidden' });

beforeAll(async () => {
  const appDir = await appWithBuiltAdmin();
  app = await startApp({ http: true, serveAdminPanel: true, appDir, patchConfig });
  await ensureSuperAdmin(app.strapi, {
    email: EMAIL,
    password: PASSWORD,
    firstname: 'Ada',
    lastname: 'Admin',
  });

  // The account already holds a few pinpoints made elsewhere.
  for (const [name, latitude, longitude] of [
    ['Eiffel Tower', 48.8584, 2.2945],
    ['Notre-Dame', 48.853, 2.3499],
    ['Sacré-Cœur', 48.8867, 2.3431],
  ] as const) {
    app.emulator.create('pinpoints', { name, latitude, longitude });
  }
  // Content that existed before the plugin was connected: nothing of it was ever queued, a resync must find it.
  for (const [i, title] of PLACES.entries()) {
    await createPlace(app.strapi, {
      title,
      address: `${i + 1} rue de Paris`,
      geo: { lat: 48.85 + i / 200, lng: 2.33 + i / 200 },
    });
  }
  brokenId = (
    await createPlace(app.strapi, {
      title: 'Hidden courtyard',
      address: 'Somewhere in Paris',
      geo: null,
    })
  ).documentId;
  // (status() writes the intents still buffered in memory to the outbox first, so that none comes after.)
  await app.sync().status();
  await app.strapi.db.query('plugin::location-content.outbox-entry').deleteMany({});

  await fs.mkdir(SHOTS, { recursive: true });
  browser = await openBrowser(WAIT);
  ({ context, page } = browser);
});

afterAll(async () => {
  await browser?.close();
  await stopApp(app, { settle: true });
});

test('log in', async () => {
  await logIn(page, app.url!, EMAIL, PASSWORD);
});

test('settings: save the credentials, test the connection, see the mappings', async () => {
  await page.goto(`${app.url}/admin/settings/location-content`);
  await page.getByRole('heading', { name: 'API connection' }).waitFor();
  await page.getByText('Not connected yet').waitFor();
  await page.getByLabel('Base URL').fill(app.emulator.baseUrl);
  await page.getByLabel('Client id').fill(app.emulator.clientId);
  await page.getByLabel('Client secret').fill(app.emulator.clientSecret);
  await page.getByRole('button', { name: 'Save' }).click();
  await page.getByText('Settings saved').first().waitFor();
  // Write-only: the field is empty again and only the hint knows a secret is saved.
  expect(await page.getByLabel('Client secret').inputValue()).toBe('');
  expect(await page.content()).not.toContain(app.emulator.clientSecret);

  await page.getByRole('button', { name: 'Test connection' }).click();
  const result = page.getByTestId('connection-result');
  await result.getByText(/Connected to 127\.0\.0\.1:\d+: 3 pinpoints visible\./).waitFor();
  await result.getByText('First: Eiffel Tower, Notre-Dame, Sacré-Cœur').waitFor();
  await toastGone('Settings saved');
  await shot('settings');

  // The broken mapping is shown with its problem, and disabled.
  const mappings = page.getByTestId('mappings-card');
  await mappings.getByText("'api::article.article' is not a content type of this app").waitFor();
  await mappings.getByText('Disabled: fix config').waitFor();
  await mappings.screenshot({
    path: path.join(SHOTS, 'settings-mappings.png'),
    animations: 'disabled',
  });

  // A wrong secret typed in the form is tested without being saved.
  await page.getByLabel('Client secret').fill('not-the-secret');
  await page.getByRole('button', { name: 'Test connection' }).click();
  await result
    .getByText(/Wrong client id or client secret: 127\.0\.0\.1:\d+ refused them\./)
    .waitFor();
  await shot('settings-test-failed');
  expect((await app.sync().credentials.get()).clientSecret).toBe(app.emulator.clientSecret);
});

test('dashboard: a dry run lists what a resync would do', async () => {
  await page.goto(`${app.url}/admin/plugins/location-content`);
  await page.getByRole('heading', { name: 'Location Content sync' }).waitFor();
  await page.getByRole('button', { name: 'Dry run' }).click();
  const plan = page.getByTestId('dry-run');
  await plan.getByText(`Create (${PLACES.length})`).waitFor();
  await plan.getByText('Cannot be pushed (1)').waitFor();
  await plan.getByText('Louvre').waitFor();
  await plan.getByText('Hidden courtyard').waitFor();
  await plan.getByText(/latitude: empty field geo \(Geo point\) › lat/).waitFor();
  await shot('dry-run');
  await page.getByRole('button', { name: 'Close' }).last().click();
  await plan.waitFor({ state: 'hidden' });
  expect(app.emulator.state().pinpoints).toHaveLength(3);
});

test('dashboard: a resync shows its progress to the end, across a reload', async () => {
  await page.getByTestId('resync-button').click();
  await page.getByRole('alertdialog').getByText('Resync everything?').waitFor();
  await shot('resync-confirm');
  await page.getByTestId('resync-confirm').click();

  await page.getByTestId('resync-state').filter({ hasText: 'Running' }).waitFor();
  expect(await page.getByTestId('resync-button').isDisabled()).toBe(true);
  // A moment with some progress made, unless the job was faster than the screenshot.
  await page.waitForFunction(() => {
    const state = document.querySelector('[data-testid="resync-state"]')?.textContent;
    const percent = document.querySelector('[data-testid="resync-percent"]')?.textContent;
    return state !== 'Running' || (percent !== '0%' && percent !== '100%');
  });
  await toastGone('Resync started');
  await shot('dashboard-resync-running');

  // Progress comes from the server: a reload while it runs shows the same job.
  await page.reload();
  await page.getByTestId('resync-progress').waitFor();

  await page
    .getByTestId('resync-state')
    .filter({ hasText: 'Finished' })
    .waitFor({ timeout: 180_000 });
  expect(await page.getByTestId('resync-percent').textContent()).toBe('100%');
  expect(await page.getByTestId('resync-counts').textContent()).toBe(
    `${PLACES.length + 1} of ${PLACES.length + 1} entries · ${PLACES.length} pushed · 1 failed · 0 unchanged`
  );
  await page.getByTestId('failed-table').getByRole('link', { name: 'Hidden courtyard' }).waitFor();
  await page
    .getByTestId('count-synced')
    .filter({ hasText: String(PLACES.length) })
    .waitFor();
  await shot('dashboard');
  expect(app.emulator.state().pinpoints).toHaveLength(3 + PLACES.length);
});

test('a failed entry: its error in the side panel, fixed and pushed', async () => {
  await page.getByTestId('failed-table').getByRole('link', { name: 'Hidden courtyard' }).click();
  await page.waitForURL(
    new RegExp(
      `/content-manager/collection-types/api::place.place/${brokenId}\\?plugins\\[i18n\\]\\[locale\\]=en`
    )
  );
  const panel = page.getByTestId('location-content-panel');
  await panel.getByText('Failed', { exact: true }).waitFor();
  expect(await panel.getByTestId('location-content-error').textContent()).toBe(
    'latitude: empty field geo (Geo point) › lat; longitude: empty field geo (Geo point) › lng'
  );
  await shot('entry-failed');

  // Add the coordinates, save and publish: the publish queues the push by itself.
  await page.getByRole('button', { name: /No entry yet/ }).click();
  await page.getByLabel('lat').fill('48.8606');
  await page.getByLabel('lng').fill('2.3376');
  await page.getByRole('button', { name: 'Save' }).click();
  await page.getByText('Saved document').first().waitFor();
  await page.getByRole('button', { name: 'Publish' }).click();
  await page.getByText('Published document').first().waitFor();
  await panel.getByText('Synced').waitFor();

  // "Push now" from the document actions queues it again (nothing changed: the remote is not called again).
  await settle();
  await page.getByRole('button', { name: 'More document actions' }).click();
  await page.getByRole('menuitem', { name: 'Push now' }).click();
  await page.getByText('Queued: the published version is pushed').first().waitFor();
  await panel.getByText(/pinpoint #\d+/).waitFor();
  await toastGone('Queued: the published version is pushed');
  await toastGone('Published document');
  await panel.getByText('Synced').waitFor();
  await shot('entry-synced');

  await app.sync().idle();
  const state = await app
    .sync()
    .stateOf({ contentType: 'api::place.place', documentId: brokenId, locale: 'en' });
  expect(state).toMatchObject({ status: 'synced', lastError: null, queued: false });
  expect(app.emulator.state().pinpoints.find((p) => p.id === state?.remoteId)).toMatchObject({
    name: 'Hidden courtyard',
    latitude: 48.8606,
    longitude: 2.3376,
  });
});

test('list view: push selected entries', async () => {
  await page.goto(
    `${app.url}/admin/content-manager/collection-types/api::place.place?page=1&pageSize=10&sort=title:ASC&plugins[i18n][locale]=en`
  );
  await page
    .getByRole('gridcell', { name: 'Bourdelle' })
    .or(page.getByText('Bourdelle'))
    .first()
    .waitFor();
  await page
    .getByRole('checkbox', { name: /Select all/ })
    .first()
    .check();
  await settle();
  await shot('list-selected');
  await page.getByRole('button', { name: 'Push selected' }).click();
  await page
    .getByRole('alertdialog')
    .getByText(/Push the published version of 10 entries/)
    .waitFor();
  await shot('list-push-selected');
  await page.getByRole('alertdialog').getByRole('button', { name: 'Push' }).click();
  await page.getByText('10 entries queued for push.').first().waitFor();
  await app.sync().idle();
});

/**
 * A role that may read, edit and publish places in the Content Manager (the super admin's permissions on
 * api::place.place: every field and locale), plus the given plugin actions.
 */
async function placeEditorRole(name: string, pluginActions: string[]) {
  const roles = app.strapi.service('admin::role');
  const superAdmin = await roles.getSuperAdmin();
  const onPlaces = await app.strapi
    .service('admin::permission')
    .findMany({ where: { role: { id: superAdmin.id }, subject: 'api::place.place' } });
  const role = await roles.create({ name, description: name });
  await roles.assignPermissions(role.id, [
    ...onPlaces.map((p: { action: string; subject: string; properties?: object }) => ({
      action: p.action,
      subject: p.subject,
      properties: p.properties ?? {},
      conditions: [],
    })),
    ...pluginActions.map((action) => ({
      action: `plugin::location-content.${action}`,
      subject: null,
      properties: {},
      conditions: [],
    })),
  ]);
  return role;
}

async function loginAs(email: string, roleId: number | string) {
  await app.strapi.service('admin::user').create({
    email,
    firstname: email.split('@')[0],
    lastname: 'Test',
    password: PASSWORD,
    isActive: true,
    roles: [roleId],
  });
  // Log out: forget the session (cookies and storage of the admin's origin), then open the login page.
  await page.goto(`${app.url}/admin/auth/login`);
  await context.clearCookies();
  await page.evaluate(() => {
    localStorage.clear();
    sessionStorage.clear();
  });
  await logIn(page, app.url!, email, PASSWORD);
}

const entryUrl = () =>
  `${app.url}/admin/content-manager/collection-types/api::place.place/${brokenId}?plugins[i18n][locale]=en`;

test('without the plugin permissions: no menu link, no settings link, no panel, no push action', async () => {
  const editor = await placeEditorRole('Place editor', []);
  await loginAs('editor@example.com', editor.id);
  await page.getByRole('link', { name: 'Content Manager' }).first().waitFor();
  expect(await page.getByRole('link', { name: 'Location sync' }).count()).toBe(0);

  await page.goto(`${app.url}/admin/settings`);
  await page.getByRole('link', { name: 'Overview' }).waitFor();
  expect(await page.getByRole('link', { name: 'Location Content' }).count()).toBe(0);
  await page.goto(`${app.url}/admin/settings/location-content`);
  await page
    .getByText(/don.t have the permissions/i)
    .first()
    .waitFor();
  expect(await page.getByLabel('Base URL').count()).toBe(0);

  await page.goto(entryUrl());
  await page.getByRole('heading', { name: 'Hidden courtyard' }).waitFor();
  await page.getByRole('button', { name: 'More document actions' }).click();
  await page.getByRole('menuitem').first().waitFor();
  await settle();
  expect(await page.getByRole('menuitem', { name: 'Push now' }).count()).toBe(0);
  await page.keyboard.press('Escape');
  expect(await page.getByTestId('location-content-panel').count()).toBe(0);

  await page.goto(`${app.url}/admin/plugins/location-content`);
  await page
    .getByText(/don.t have the permissions/i)
    .first()
    .waitFor();
});

test('read-only permissions: the dashboard and the panel without their buttons, settings locked', async () => {
  const viewer = await placeEditorRole('Sync viewer', ['settings.read', 'sync.read']);
  await loginAs('viewer@example.com', viewer.id);
  await page.getByRole('link', { name: 'Location sync' }).click();
  await page.getByRole('heading', { name: 'Location Content sync' }).waitFor();
  await page.getByTestId('count-synced').waitFor();
  for (const name of ['Resync', 'Dry run', /Retry failed/])
    expect(await page.getByRole('button', { name }).count()).toBe(0);

  await page.goto(`${app.url}/admin/settings/location-content`);
  await page.getByRole('heading', { name: 'API connection' }).waitFor();
  expect(await page.getByLabel('Base URL').isDisabled()).toBe(true);
  expect(await page.getByLabel('Client secret').isDisabled()).toBe(true);
  expect(await page.getByRole('button', { name: 'Save' }).count()).toBe(0);
  expect(await page.getByRole('button', { name: 'Test connection' }).count()).toBe(0);
  await shot('settings-read-only');

  await page.goto(entryUrl());
  await drawn(page.getByTestId('location-content-panel').getByText(/Synced|Failed|Not pushed yet/));
  await page.getByRole('button', { name: 'More document actions' }).click();
  await page.getByRole('menuitem').first().waitFor();
  await settle();
  expect(await page.getByRole('menuitem', { name: 'Push now' }).count()).toBe(0);
  await page.keyboard.press('Escape');
});
