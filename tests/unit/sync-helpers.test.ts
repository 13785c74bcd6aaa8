import { backoffMs } from '../../server/src/sync/worker/backoff';
import { idsInErrors } from '../../server/src/sync/push/membership';
import { fingerprintOf, matches } from '../../server/src/sync/push/recovery';

describe('backoffMs', () => {
  const opts = { baseMs: 1000, maxMs: 60_000 };

  it('grows exponentially, with jitter in the upper half of each step', () => {
    expect(backoffMs(0, opts, 0, () => 0)).toBe(500);
    expect(backoffMs(0, opts, 0, () => 1)).toBe(1000);
    expect(backoffMs(3, opts, 0, () => 0)).toBe(4000);
    expect(backoffMs(3, opts, 0, () => 1)).toBe(8000);
  });

  it('never exceeds the cap, even after many attempts', () => {
    for (const attempt of [10, 30, 1000]) expect(backoffMs(attempt, opts, 0, () => 1)).toBe(60_000);
  });

  it('never comes sooner than the remote asked', () => {
    expect(backoffMs(0, opts, 30_000, () => 0)).toBe(30_000);
  });
});

describe('idsInErrors (membership answers)', () => {
  it('finds the ids the errors name, in the shapes a Django API may use', () => {
    expect(idsInErrors([{ id: 5, detail: 'Not found.' }, { pk: '7' }, 9])).toEqual(
      new Set([5, 7, 9])
    );
  });

  it('is null when one error names no id: that call is uncertain', () => {
    expect(idsInErrors([{ id: 5 }, { detail: 'Something went wrong' }])).toBeNull();
    expect(idsInErrors(['bad'])).toBeNull();
  });
});

describe('recovery matches', () => {
  const pp = fingerprintOf('pinpoint', {
    name: 'Old harbour',
    latitude: 43.2961743,
    longitude: 5.3699525,
  });

  it('finds the object of a lost create as a remote may store it', () => {
    expect(
      matches('pinpoint', pp, { name: 'Old harbour', latitude: 43.2961743, longitude: 5.3699525 })
    ).toBe(true);
    // Coordinates kept with 5 decimals, a name trimmed and its spaces collapsed.
    expect(
      matches('pinpoint', pp, { name: 'Old harbour', latitude: 43.29617, longitude: 5.36995 })
    ).toBe(true);
    expect(
      matches(
        'pinpoint',
        fingerprintOf('pinpoint', { name: '  Old   harbour ', latitude: 1, longitude: 2 }),
        { name: 'Old harbour', latitude: 1, longitude: 2 }
      )
    ).toBe(true);
  });

  it('tells other objects apart', () => {
    expect(
      matches('pinpoint', pp, { name: 'Old harbour', latitude: 43.2962, longitude: 5.3699525 })
    ).toBe(false);
    expect(
      matches('pinpoint', pp, { name: 'Old Harbour', latitude: 43.2961743, longitude: 5.3699525 })
    ).toBe(false);
    expect(matches('pinpoint', pp, { name: 'Old harbour' })).toBe(false);
    const ev = fingerprintOf('event', {
      name: 'Concert',
      pinpoint: 7,
      dates: [{ start: '2026-07-01T18:00:00.000Z' }],
    });
    expect(
      matches('event', ev, {
        name: 'Concert',
        pinpoint: 7,
        dates: [{ start: '2026-07-01T20:00:00+02:00' }],
      })
    ).toBe(true);
    expect(
      matches('event', ev, {
        name: 'Concert',
        pinpoint: 8,
        dates: [{ start: '2026-07-01T18:00:00.000Z' }],
      })
    ).toBe(false);
    expect(
      matches('event', ev, {
        name: 'Concert',
        pinpoint: 7,
        dates: [{ start: '2026-07-02T18:00:00.000Z' }],
      })
    ).toBe(false);
  });
});
