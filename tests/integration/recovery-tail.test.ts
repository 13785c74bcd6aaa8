/**
 * A create whose answer was lost, on an account whose inventory was walked: the plugin reads
 * from where the last walk ended (a page or two) instead of walking the whole collection again,
 * and walks it all when that read cannot show it everything created since.
 */
jest.setTimeout(180_000);
import type { EmulatorHandle, RequestLogEntry } from '../../emulator/src';
import { startApp, stopApp, type TestApp } from '../helpers/strapi';
import { createPlace } from '../helpers/content';
import { mark, PLACE, remoteCall, stateOf, until, stateIn } from '../helpers/sync';

const SEEDED = 200;
const PAGE = 20;

/** The calls since `since` that matter here (token requests left out). */
const callsSince = (emulator: EmulatorHandle, since: number) =>
  emulator.requests({ since }).filter((r) => !r.path.startsWith('/v3.0/oauth2/'));
const pinpointGets = (calls: RequestLogEntry[]) =>
  calls.filter((r) => r.method === 'GET' && r.path.startsWith('/v3.0/pinpoints'));

describe.each(['offset', 'cursor'] as const)(
  'a lost create after a walk (%s pages)',
  (pagination) => {
    let app: TestApp;
    let seeded: number[];

    beforeAll(async () => {
      app = await startApp({ emulator: { pageSize: PAGE, pagination, requestLogSize: 20_000 } });
      seeded = app.emulator.seed(
        'pinpoints',
        Array.from({ length: SEEDED }, (_, i) => ({
          name: `Existing ${i}`,
          latitude: 30 + i / 1000,
          longitude: 2,
        }))
      );
      await app.sync().inventory();
    });

    afterAll(() => stopApp(app));

    /** Creates a place whose first POST meets `fault`; resolves when the queue is idle. */
    const lostCreate = async (
      title: string,
      lat: number,
      fault: 'reset-after' | 'reset-before'
    ) => {
      const { strapi, emulator } = app;
      emulator.scriptFaults([{ kind: fault, method: 'POST', pathPrefix: '/v3.0/pinpoints' }]);
      const since = mark(emulator);
      const place = await createPlace(strapi, { title, geo: { lat, lng: 7 } });
      await app.sync().idle();
      const calls = callsSince(emulator, since);
      const copies = emulator.state().pinpoints.filter((p) => p.name === title);
      const state = await stateOf(app, PLACE, place.documentId);
      return { calls, copies, state };
    };

    test('a deletion while the tail is read: the page before is read again, and a move means a full walk', async () => {
      const { strapi, emulator } = app;
      // The last walk ended on a full page: the lost object opens the next one, which is delayed
      // while someone deletes an object before it.
      emulator.scriptFaults([
        { kind: 'reset-after', method: 'POST', pathPrefix: '/v3.0/pinpoints' },
        { kind: 'pass', method: 'GET', pathPrefix: '/v3.0/pinpoints' },
        { kind: 'latency', latencyMs: 800, method: 'GET', pathPrefix: '/v3.0/pinpoints' },
      ]);
      const since = mark(emulator);
      const place = await createPlace(strapi, { title: 'Moved back', geo: { lat: 44, lng: 7 } });
      await until(
        () => pinpointGets(callsSince(emulator, since)).length >= 1,
        'the tail read to start'
      );
      expect((await remoteCall(emulator, 'DELETE', `/v3.0/pinpoints/${seeded[150]}`)).status).toBe(
        204
      );
      await app.sync().idle();

      const copies = emulator.state().pinpoints.filter((p) => p.name === 'Moved back');
      expect(copies).toHaveLength(1);
      expect(await stateOf(app, PLACE, place.documentId)).toMatchObject({
        status: 'synced',
        remoteId: copies[0].id,
      });
      const calls = callsSince(emulator, since);
      expect(calls.filter((r) => r.method === 'POST').map((r) => r.status)).toEqual([null]);
      const gets = pinpointGets(calls);
      expect(gets[1]).toMatchObject({ fault: 'latency', status: 200 });
      // Offset pages moved back by one: only a full walk (from the first address) can tell.
      // A cursor names the last id read: nothing moved, the tail sufficed.
      expect(gets.some((r) => r.path === '/v3.0/pinpoints')).toBe(pagination === 'offset');
    });

    test('one that landed is adopted from the tail, without a full walk', async () => {
      const { calls, copies, state } = await lostCreate('Landed', 44.1, 'reset-after');

      expect(copies).toHaveLength(1);
      expect(state).toMatchObject({ status: 'synced', lastError: null, remoteId: copies[0].id });
      const posts = calls.filter((r) => r.method === 'POST');
      expect(posts.map((r) => r.status)).toEqual([null]); // reset after it was stored: never posted again
      const gets = pinpointGets(calls);
      // The last walk's last page (re-read from its link, as the remote gave it), the new one, and
      // the one before it again (through `previous`) to see that nothing moved meanwhile.
      expect(gets.length).toBeGreaterThanOrEqual(1);
      expect(gets.length).toBeLessThanOrEqual(3);
      expect(gets[0].path).not.toBe('/v3.0/pinpoints');
      expect(calls.filter((r) => r.method === 'PUT').map((r) => r.path)).toEqual([
        `/v3.0/pinpoints/${state?.remoteId}`,
      ]);
      expect(app.logs.some((l) => l.includes('has no recorded answer'))).toBe(true);
    });

    test('one that did not land is created once, after a read of the tail', async () => {
      const { calls, copies, state } = await lostCreate('Not landed', 44.2, 'reset-before');

      expect(copies).toHaveLength(1);
      expect(state).toMatchObject({ status: 'synced', lastError: null, remoteId: copies[0].id });
      expect(calls.filter((r) => r.method === 'POST').map((r) => r.status)).toEqual([null, 201]);
      const gets = pinpointGets(calls);
      expect(gets.length).toBeGreaterThanOrEqual(1);
      expect(gets.length).toBeLessThanOrEqual(3);
      expect(gets.some((r) => r.path === '/v3.0/pinpoints')).toBe(false);
    });

    test('another writer adding and deleting a few objects: still the tail, still no duplicate', async () => {
      const { emulator } = app;
      for (const id of seeded.slice(0, 5))
        expect((await remoteCall(emulator, 'DELETE', `/v3.0/pinpoints/${id}`)).status).toBe(204);
      for (let i = 0; i < 3; i++)
        expect(
          (
            await remoteCall(emulator, 'POST', '/v3.0/pinpoints', {
              name: `Foreign ${i}`,
              latitude: 10,
              longitude: 10 + i,
            })
          ).status
        ).toBe(201);

      const { calls, copies, state } = await lostCreate('Landed among others', 44.3, 'reset-after');

      expect(copies).toHaveLength(1);
      expect(state).toMatchObject({ status: 'synced', remoteId: copies[0].id });
      const gets = pinpointGets(calls);
      // With offset pages the deletions moved the last page back: one step through `previous`.
      expect(gets.length).toBeLessThanOrEqual(6);
      expect(gets.some((r) => r.path === '/v3.0/pinpoints')).toBe(false);
    });

    test('another writer deleting many objects before the tail: offset pages fall back to a full walk', async () => {
      const { emulator } = app;
      // Far more than the pages a tail read steps back through.
      for (const id of seeded.slice(5, 105))
        expect((await remoteCall(emulator, 'DELETE', `/v3.0/pinpoints/${id}`)).status).toBe(204);
      const total = emulator.state().pinpoints.length + 1;

      const { calls, copies, state } = await lostCreate(
        'Landed after a purge',
        44.4,
        'reset-after'
      );

      expect(copies).toHaveLength(1);
      expect(state).toMatchObject({ status: 'synced', remoteId: copies[0].id });
      const gets = pinpointGets(calls);
      if (pagination === 'offset') {
        // Every page, from the first address (the only one ever built).
        expect(gets.some((r) => r.path === '/v3.0/pinpoints')).toBe(true);
        expect(gets.length).toBeGreaterThanOrEqual(Math.ceil(total / PAGE));
      } else {
        // A cursor names the last id read: deletions before it change nothing.
        expect(gets.length).toBeLessThanOrEqual(3);
      }
    });

    test('an older twin of the lost object falls back to a full walk, and the new one is adopted', async () => {
      const { strapi, emulator } = app;
      // Someone made this place by hand before, and more after it: a walk saw it, no entry owns it,
      // and it is not on the last page.
      const [old] = emulator.seed('pinpoints', [{ name: 'Twin', latitude: 44.5, longitude: 7 }]);
      emulator.seed(
        'pinpoints',
        Array.from({ length: 2 * PAGE }, (_, i) => ({
          name: `Filler ${i}`,
          latitude: 20,
          longitude: i,
        }))
      );
      await app.sync().inventory();
      const total = emulator.state().pinpoints.length + 1;

      emulator.scriptFaults([
        { kind: 'reset-after', method: 'POST', pathPrefix: '/v3.0/pinpoints' },
      ]);
      const since = mark(emulator);
      const place = await createPlace(strapi, { title: 'Twin', geo: { lat: 44.5, lng: 7 } });
      await app.sync().idle();

      const twins = emulator.state().pinpoints.filter((p) => p.name === 'Twin');
      expect(twins).toHaveLength(2);
      const state = await stateIn(app, PLACE, place.documentId);
      // The newest match is the one this create made; the old one stays free.
      expect(state).toMatchObject({ status: 'synced' });
      expect(state.remoteId).not.toBe(old);
      expect(twins.map((p) => p.id).sort()).toEqual([old, state.remoteId].sort());
      const gets = pinpointGets(callsSince(emulator, since));
      expect(gets.some((r) => r.path === '/v3.0/pinpoints')).toBe(true);
      expect(gets.length).toBeGreaterThanOrEqual(Math.ceil(total / PAGE));
    });

    test('no duplicate anywhere', () => {
      const names = app.emulator.state().pinpoints.map((p) => p.name);
      expect(new Set(names).size).toBe(names.length - 1); // the two Twins
    });
  }
);
