import path from 'node:path';
import type { Page } from 'playwright-core';
import { ROOT } from '../helpers/strapi';

/**
 * Where the browser tests save their screenshots: tests/.artifacts/screenshots (ignored by git), so
 * that a test run leaves the tree clean; `npm run docs:screenshots` sets SCREENSHOTS_DIR=docs/screenshots.
 */
export const SHOTS = path.resolve(
  ROOT,
  process.env.SCREENSHOTS_DIR ?? path.join('tests', '.artifacts', 'screenshots')
);

/** Saves the page as `<name>.png` in SHOTS, without Strapi's banner, a hover or a focus ring. */
export async function saveShot(page: Page, name: string) {
  // Strapi's own announcement banner would sit on top of every picture.
  const closeBanner = page.getByRole('button', { name: 'Close the banner' });
  if (await closeBanner.isVisible()) await closeBanner.click();
  await page.mouse.move(0, 0);
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  await page.screenshot({ path: path.join(SHOTS, `${name}.png`), animations: 'disabled' });
}

/**
 * After a failed test: a screenshot (`failed-<test>.png`) and, in the test's output, the page's
 * address and text, so that a failure on CI says what the browser showed.
 */
export function reportFailures(page: () => Page | undefined) {
  afterEach(async () => {
    const scope = globalThis as { __LC_FAILED__?: string };
    const failed = scope.__LC_FAILED__;
    const shown = page();
    delete scope.__LC_FAILED__;
    if (failed === undefined || !shown) return;
    const name = `failed-${failed.replace(/[^\w]+/g, '-').slice(0, 60)}`;
    const text = await shown
      .innerText('body', { timeout: 5_000 })
      .catch((err: Error) => `(no text: ${err.message})`);
    await shown
      .screenshot({ path: path.join(SHOTS, `${name}.png`), timeout: 10_000 })
      .catch(() => undefined);
    console.error(
      `the browser after "${failed}": ${shown.url()}\n${text.replace(/\n{2,}/g, '\n').slice(0, 3_000)}`
    );
  });
}
