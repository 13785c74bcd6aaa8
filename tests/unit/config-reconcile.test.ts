import type { ReconcileConfig } from '../../server/src/config/types';
import { defaults } from '../../server/src/config/defaults';
import { configShapeProblems } from '../../server/src/config/validate';

/** The scheduled check: off by default, and a wrong setting is a clear error at boot. */

test('off by default, and accepted when well formed', () => {
  expect(defaults.reconcile).toBeNull();
  expect(configShapeProblems(defaults)).toEqual([]);
  expect(
    configShapeProblems({ ...defaults, reconcile: { cron: '0 3 * * *', repair: 'missing' } })
  ).toEqual([]);
  expect(
    configShapeProblems({ ...defaults, reconcile: { cron: '*/30 * * * * *', repair: 'all' } })
  ).toEqual([]);
});

test('a bad rule or repair mode says what is wrong', () => {
  expect(
    configShapeProblems({ ...defaults, reconcile: { cron: 'nightly', repair: 'none' } })
  ).toEqual([
    `location-content.config.reconcile.cron must be a cron rule such as '0 3 * * *', got "nightly"`,
  ]);
  expect(
    configShapeProblems({
      ...defaults,
      reconcile: { cron: '0 3 * * *', repair: 'everything' } as unknown as ReconcileConfig,
    })
  ).toEqual([
    `location-content.config.reconcile.repair must be 'none', 'missing' or 'all', got "everything"`,
  ]);
  expect(
    configShapeProblems({ ...defaults, reconcile: '0 3 * * *' as unknown as ReconcileConfig })
  ).toEqual(['location-content.config.reconcile must be { cron, repair } or null (off)']);
});
