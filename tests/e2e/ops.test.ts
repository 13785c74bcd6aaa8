/**
 * Running it with confidence, in a real browser: the push history and the map link in the side panel,
 * the homepage widget, the target account on the dashboard, and the notice (not closable) of an
 * environment that does not push on every page of the plugin, with the actions it turns off. Screenshots go where ./screenshots says (docs/screenshots with npm run docs:screenshots).
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
import { reportFailures, SHOTS } from './screenshots';
import { ensureSuperAdmin } from '../helpers/admin-api';

jest.setTimeout(300_000);

const EMAIL = 'ops@example.com';
const PASSWORD = 'Str0ngPassw0rd!';
const LIVEMAP = 'https://livemap.getwemap.com/#/pinpoints/{id}';

let app: TestApp;
let page: Page;
reportFailures(() => page);
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
  await ensureSuperAdmin(app.strapi, {
    email: EMAIL,
    password: PASSWORD,
    firstname: 'Otto',
    lastname: 'Ops',
  });

  // A history of five attempts: created, refused by the remote (400), updated three times.
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
  for (const title of ['Louvre', 'Le Louvre', 'Louvre']) {
    await docs(app.strapi, PLACE).update({ documentId: placeId, data: { title } });
    await docs(app.strapi, PLACE).publish({ documentId: placeId });
    await app.sync().idle();
  }

  await fs.mkdir(SHOTS, { recursive: true });
  browser = await openBrowser(60_000);
  ({ page } = browser);
  // The admin build alone can take several minutes on a shared machine.
}, 900_000);

afterAll(async () => {
  await browser?.close();
  // Not settled: the change the pushIn case queued stays queued on purpose (nothing pushes in
  // "test" any more), and waiting for the queue to empty waited out its minute.
  await stopApp(app);
  await receiver?.close();
});

test('log in', async () => {
  await logIn(page, app.url!, EMAIL, PASSWORD);
});

test('side panel: the last 3 pushes, newest first, the rest one click away, and the link to the object on the map', async () => {
  const remoteId = (await stateOf(app, PLACE, placeId))!.remoteId;
  await page.goto(entryUrl());
  const panel = page.getByTestId('location-content-panel');
  const history = panel.getByTestId('location-content-history');
  await history.getByText('Push history').waitFor();
  const rows = history.locator(':scope > div');
  // The panel sits below the editor's actions: only the newest three at first.
  let lines = await rows.allInnerTexts();
  expect(lines).toHaveLength(3);
  for (const line of lines) expect(line).toMatch(/^Update\s+done/);
  const more = history.getByTestId('location-content-history-more');
  expect(await more.textContent()).toBe('Show all 5 attempts');
  await more.click();
  await rows.nth(4).waitFor();
  lines = await rows.allInnerTexts();
  expect(lines).toHaveLength(5);
  expect(lines[3]).toMatch(/^Push\s+HTTP 400/);
  expect(lines[3]).toContain('Ensure this field has no more than 5 characters.');
  expect(lines[4]).toMatch(/^Create\s+done/);
  expect(await more.textContent()).toBe('Show the last 3 only');
  await more.click();
  await rows.nth(3).waitFor({ state: 'detached' });
  expect(await rows.count()).toBe(3);
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

test('homepage: the widget shows the counts, the last resync and check, and links to the dashboard', async () => {
  await app.sync().resync();
  await app.sync().idle();
  await app.sync().check();
  const status = await app.sync().status();
  expect(status.resync?.state).toBe('done');
  expect(status.counts.synced).toBeGreaterThan(0);

  await page.goto(`${app.url}/admin`);
  const widget = page.getByTestId('location-content-widget');
  await widget.waitFor({ timeout: 60_000 });
  for (const s of ['synced', 'pending', 'failed'] as const)
    expect(await widget.getByTestId(`widget-count-${s}`).textContent()).toBe(
      String(status.counts[s])
    );
  expect(await widget.getByTestId('widget-resync').textContent()).toMatch(
    /^Last resync: .+ \(Finished\)$/
  );
  expect(await widget.getByTestId('widget-drift').textContent()).toMatch(
    /^Last check of the remote: .+\d/
  );
  expect(await widget.getByTestId('widget-not-pushing').count()).toBe(0);
  // Strapi's widget frame: the title and the link to the dashboard.
  const frame = page.locator('section', { has: widget });
  await frame.getByText('Location sync', { exact: true }).waitFor();
  const link = frame.getByRole('link', { name: 'Open the sync dashboard' });
  expect(await link.getAttribute('href')).toMatch(/\/admin\/plugins\/location-content$/);
  await shot('homepage-widget', frame);
  await link.click();
  await page.getByTestId('location-content-target').waitFor();
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

test('outside pushIn, every page of the plugin shows a notice that cannot be closed, Resync is off, and a publish waits in the queue', async () => {
  setPluginConfig(app.strapi, 'pushIn', ['production']);
  const banner = page.getByTestId('location-content-environment-banner');
  const title = 'Environment "test": nothing is pushed';

  await page.goto(`${app.url}/admin/settings/location-content`);
  await banner.getByText(title).waitFor();
  await banner
    .getByText('pushes go out only in production (config pushIn)', { exact: false })
    .waitFor();
  // A safety notice: nothing in it closes it.
  expect(await banner.getByRole('button').count()).toBe(0);
  await shot('settings-environment');

  const before = app.emulator.requests().length;
  await docs(app.strapi, PLACE).update({
    documentId: placeId,
    data: { title: 'Louvre (staging)' },
  });
  await docs(app.strapi, PLACE).publish({ documentId: placeId });

  await page.goto(`${app.url}/admin/plugins/location-content`);
  await banner.getByText(title).waitFor();
  expect(await banner.getByRole('button').count()).toBe(0);
  await page.getByTestId('queue-depth').filter({ hasText: '1' }).waitFor();
  // One vocabulary: the entry stays Synced (its last push), its newer change is queued.
  await page.getByText('Queued changes', { exact: true }).waitFor();
  expect(await page.getByTestId('count-pending').textContent()).toBe('0');
  // Resync would only fill the queue here: off, and the page says why.
  expect(await page.getByTestId('resync-button').isDisabled()).toBe(true);
  expect(await page.getByTestId('resync-off').textContent()).toBe(
    'Nothing is pushed in "test": Resync is off.'
  );
  // The walk still works (it only reads): enabled, and the card says what it does here.
  expect(await page.getByTestId('inventory-walk').isDisabled()).toBe(false);
  expect(await page.getByTestId('inventory-not-pushing').textContent()).toContain(
    'the walk only reads the remote account'
  );
  await shot('dashboard-environment');

  await page.goto(entryUrl());
  const panel = page.getByTestId('location-content-panel');
  await panel.getByTestId('location-content-environment-banner').getByText(title).waitFor();
  expect(
    await panel.getByTestId('location-content-environment-banner').getByRole('button').count()
  ).toBe(0);
  expect(await panel.getByTestId('location-content-queued').textContent()).toBe(
    'A newer change is queued'
  );
  await shot('entry-environment', panel);

  await page.goto(`${app.url}/admin`);
  await page.getByTestId('widget-not-pushing').getByText(title).waitFor();
  expect(
    app.emulator
      .requests()
      .slice(before)
      .filter((r) => r.method !== 'GET' && !r.path.startsWith('/v3.0/oauth2/'))
  ).toEqual([]);
});

test('settings: each button has its hint beneath it; "Send test alert" posts a test alert to the webhook', async () => {
  await page.goto(`${app.url}/admin/settings/location-content`);
  const box = async (testId: string) => {
    const b = await page.getByTestId(testId).boundingBox();
    if (!b) throw new Error(`${testId} is not shown`);
    return b;
  };
  for (const [button, hint, text] of [
    ['test-connection', 'test-connection-hint', 'Asks for a token'],
    ['test-alert', 'test-alert-hint', 'Sends one alert to each configured channel'],
  ]) {
    await page.getByTestId(hint).getByText(text, { exact: false }).waitFor();
    const b = await box(button);
    const h = await box(hint);
    // right below its own button, aligned with it: not in the row, not under the other one
    expect(h.y).toBeGreaterThanOrEqual(b.y + b.height - 1);
    expect(h.y - (b.y + b.height)).toBeLessThan(24);
    expect(Math.abs(h.x - b.x)).toBeLessThan(2);
  }
  await page.getByTestId('test-alert').click();
  await page.getByText('Test alert sent.').first().waitFor();
  // the 400 of the setup failed an entry for good: that alert came first
  expect(receiver.alerts.map((a) => a.kind)).toEqual(['failed', 'test']);
  expect(receiver.alerts[1].dashboardUrl).toMatch(/\/admin\/plugins\/location-content$/);
  await shot('settings-test-alert');
});

test('after a walk that stopped (a restart, say), the Remote account card dates the counts it shows', async () => {
  // The walk of the drift check above completed; one that stopped half-way since is recorded as
  // Strapi records it (pushIn leaves out 'test' now, so nothing resumes it).
  const store = app.strapi.store({ type: 'plugin', name: 'location-content' });
  const kept = (await store.get({ key: 'inventory' })) as Record<string, unknown>;
  await store.set({
    key: 'inventory',
    value: {
      ...kept,
      walk: {
        id: 'stopped-walk',
        startedAt: Date.parse('2026-01-15T10:00:00Z'),
        state: 'failed',
        error: 'the inventory walk stopped with Strapi; it resumes where it was at the next start',
        finishedAt: null,
      },
    },
  });
  await page.goto(`${app.url}/admin/plugins/location-content`);
  const held = page.getByTestId('inventory-held');
  await held.getByText('which did not finish', { exact: false }).waitFor();
  expect(await held.textContent()).toMatch(
    /^1 pinpoints, 0 events, 0 categories, 0 lists \(0 list members\) · read by the walk of Jan 15, 2026, \d{1,2}:\d{2} [AP]M, which did not finish$/
  );
  expect(await page.getByTestId('inventory-state').textContent()).toBe('Stopped');
  await page.getByTestId('inventory-last').getByText('Last complete walk:').waitFor();
});
