import path from 'node:path';
import { ROOT } from '../helpers/strapi';

/**
 * Where the browser tests save their screenshots: tests/.artifacts/screenshots (ignored by git), so
 * that a test run leaves the tree clean; `npm run docs:screenshots` sets SCREENSHOTS_DIR=docs/screenshots.
 */
export const SHOTS = path.resolve(
  ROOT,
  process.env.SCREENSHOTS_DIR ?? path.join('tests', '.artifacts', 'screenshots')
);
