/**
 * The installed plugin's admin in headless Chromium: what Strapi's admin APIs must do for it on the Strapi
 * release under test. The plugin calls the Content Manager APIs (`addEditViewSidePanel`,
 * `addDocumentAction`, `addBulkAction`) only where they exist, so a release without one would pass a
 * build and a boot silently: only a page in a browser shows the panel and the actions are really there.
 */
import { existsSync } from 'node:fs';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
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
  let context: BrowserContext | undefined;
  const profile = await fs.mkdtemp(path.join(os.tmpdir(), 'lc-package-chromium-'));
  const pageErrors: string[] = [];
  try {
    const opened = await check(`headless Chromium opens the admin (${CHROMIUM})`, async () => {
      if (!existsSync(CHROMIUM))
        throw new Error(
          `no Chromium at ${CHROMIUM} (set CHROMIUM_PATH; Debian: apt-get install chromium)`
        );
      context = await chromium.launchPersistentContext(profile, {
        executablePath: CHROMIUM,
        headless: true,
        args: [
          '--headless',
          '--no-sandbox',
          '--disable-gpu',
          '--no-first-run',
          '--disable-background-networking',
          '--disable-component-update',
          '--disable-sync',
        ],
        viewport: { width: 1440, height: 900 },
        locale: 'en-US',
      });
      context.setDefaultTimeout(WAIT);
    });
    if (!opened || !context) return;
    const page = context.pages()[0] ?? (await context.newPage());
    page.on('pageerror', (err) => pageErrors.push(err.message));

    const loggedIn = await check(
      'the admin logs the super admin in through its login form',
      async () => {
        await page.goto(`${base}/admin/auth/login`);
        await page.getByLabel('Email').fill(target.email);
        await page.getByLabel('Password').fill(target.password);
        await page.getByRole('button', { name: 'Login' }).click();
        await page.waitForURL(/\/admin\/?$/);
      }
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
    await context?.close().catch(() => undefined);
    await fs.rm(profile, { recursive: true, force: true }).catch(() => undefined);
  }
}
