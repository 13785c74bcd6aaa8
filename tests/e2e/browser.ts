import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { removeDir } from '../helpers/strapi';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export interface Browser {
  context: BrowserContext;
  page: Page;
  close(): Promise<void>;
}

/** Debian's headless Chromium with a fresh profile each run: nothing cached, no stored session. */
export async function openBrowser(waitMs: number): Promise<Browser> {
  const profile = await fs.mkdtemp(path.join(os.tmpdir(), 'lc-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
    viewport: { width: 1440, height: 900 },
    locale: 'en-US',
    timezoneId: 'Europe/Paris',
  });
  context.setDefaultTimeout(waitMs);
  const page = context.pages()[0] ?? (await context.newPage());
  return {
    context,
    page,
    async close() {
      await context.close();
      await removeDir(profile);
    },
  };
}

/** The admin's login form, as a person fills it in; resolves on the home page. */
export async function logIn(page: Page, baseUrl: string, email: string, password: string) {
  await page.goto(`${baseUrl}/admin/auth/login`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Login' }).click();
  await page.waitForURL(/\/admin\/?$/);
}
