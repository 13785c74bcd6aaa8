/**
 * The installed plugin's admin in headless Chromium: what Strapi's admin APIs must do for it on the Strapi
 * release under test. The plugin calls the Content Manager APIs (`addEditViewSidePanel`,
 * `addDocumentAction`, `addBulkAction`) only where they exist, so a release without one would pass a
 * build and a boot silently: only a page in a browser shows the panel and the actions are really there.
 */
import type { Page } from 'playwright-core';
import { CHROMIUM, logIn, openBrowser, type Browser } from '../e2e/browser';

/** Waits in the browser: generous, the machine is shared; nothing here asserts a duration. */
const WAIT = 60_000;

export interface AdminBrowserTarget {
  base: string;
  email: string;
  password: string;
  pluginId: string;
  /** A published entry the plugin pushed: its edit view must show the plugin's panel with "Synced". */
  synced: { uid: string; documentId: string; title: string };
}

type Check = (name: string, fn: () => Promise<void>) => Promise<boolean>;

/**
 * Lets the Content Manager draw what plugins add: it does so from requestIdleCallback, and headless
 * Chromium grants no idle time after some input until a frame is drawn.
 */
const settle = async (page: Page) => {
  await page.screenshot();
  await page.screenshot();
};

export async function adminBrowserChecks(target: AdminBrowserTarget, check: Check): Promise<void> {
  const { base, pluginId, synced } = target;
  let browser: Browser | undefined;
  const pageErrors: string[] = [];
  try {
    const opened = await check(`headless Chromium opens the admin (${CHROMIUM})`, async () => {
      browser = await openBrowser(WAIT);
    });
    if (!opened || !browser) return;
    const { page } = browser;
    page.on('pageerror', (err) => pageErrors.push(err.message));

    const loggedIn = await check('the admin logs the super admin in through its login form', () =>
      logIn(page, base, target.email, target.password)
    );
    if (!loggedIn) return;

    await check(
      "the plugin's settings page draws its form (Page, Layouts, Field, Grid)",
      async () => {
        await page.goto(`${base}/admin/settings/${pluginId}`);
        await page.getByRole('heading', { name: 'API connection' }).waitFor();
        await page.getByLabel('Base URL').waitFor();
      }
    );
    await check("the plugin's menu link opens its dashboard", async () => {
      await page.goto(`${base}/admin`);
      await page.getByRole('link', { name: 'Location sync' }).click();
      await page.getByRole('heading', { name: 'Location Content sync' }).waitFor();
      await page.getByTestId('count-synced').waitFor();
    });
    await check(
      'the edit view shows the plugin\'s side panel (addEditViewSidePanel) and "Push now" (addDocumentAction)',
      async () => {
        await page.goto(
          `${base}/admin/content-manager/collection-types/${synced.uid}/${synced.documentId}`
        );
        await page.getByRole('heading', { name: synced.title }).waitFor();
        await page.getByTestId('location-content-panel').getByText('Synced').waitFor();
        await settle(page);
        await page.getByRole('button', { name: 'More document actions' }).click();
        await page.getByRole('menuitem', { name: 'Push now' }).waitFor();
        await page.keyboard.press('Escape');
      }
    );
    await check(
      'the list view offers "Push selected" on selected entries (addBulkAction)',
      async () => {
        await page.goto(`${base}/admin/content-manager/collection-types/${synced.uid}`);
        await page.getByText(synced.title).first().waitFor();
        await page
          .getByRole('checkbox', { name: /Select all/ })
          .first()
          .check();
        await settle(page);
        await page.getByRole('button', { name: 'Push selected' }).waitFor();
      }
    );
    await check('no uncaught error in the admin pages', async () => {
      if (pageErrors.length) throw new Error(pageErrors.slice(0, 5).join('\n'));
    });
  } finally {
    await browser?.close().catch(() => undefined);
  }
}
