jest.setTimeout(120_000);
import { startEmulator } from '../../emulator/src';
import { makeAppDir, removeDir, startApp, stopApp, type TestApp } from '../helpers/strapi';
import { createHappening, createIcon, createPlace, createTour } from '../helpers/content';
import {
  counts,
  docs,
  HAPPENING,
  ICON,
  mark,
  PLACE,
  remoteCall,
  remoteOf,
  setPluginConfig,
  stateOf,
  TOUR,
  until,
  stateIn,
  remoteIdOf,
} from '../helpers/sync';
import { kind } from '../helpers/test-db';

/** No duplicates after a lost answer, nothing lost across a restart. */

// On SQLite only: finding a lost object is the remote's listing and the inventory's lookups by
// name key, which run on each server in recovery-tail.test.ts and link.test.ts (jest.config.js).
(kind() === 'sqlite' ? describe : describe.skip)('a POST whose answer is lost', () => {
  let app: TestApp;

  beforeAll(async () => {
    // Small pages, so that finding the lost object means following `next`; an account never
    // walked (no walk at linking), so that a lost create walks it all (recovery-tail.test.ts has
    // the read of the end of an earlier walk).
    app = await startApp({
      emulator: { pageSize: 5 },
      patchConfig: (config) => {
        config['location-content'].config.walkOnLink = false;
        return config;
      },
    });
  });

  afterAll(() => stopApp(app));

  test('is adopted from the remote listing, not created twice', async () => {
    const { strapi, emulator } = app;
    // Other pinpoints, among them a twin with the same name and position that belongs to another entry.
    for (let i = 0; i < 11; i++)
      await createPlace(strapi, { title: `Filler ${i}`, geo: { lat: i, lng: i } });
    const twin = await createPlace(strapi, { title: 'Twin', geo: { lat: 47.2, lng: -1.55 } });
    await app.sync().idle();
    const twinId = await remoteIdOf(app, PLACE, twin.documentId);

    emulator.scriptFaults([{ kind: 'reset-after', method: 'POST', pathPrefix: '/v3.0/pinpoints' }]);
    const since = mark(emulator);
    const place = await createPlace(strapi, { title: 'Twin', geo: { lat: 47.2, lng: -1.55 } });
    await app.sync().idle();

    const twins = emulator.state().pinpoints.filter((p) => p.name === 'Twin');
    expect(twins).toHaveLength(2);
    const s = await stateIn(app, PLACE, place.documentId);
    expect(s).toMatchObject({ status: 'synced', lastError: null });
    expect(s.remoteId).not.toBe(twinId);
    expect(twins.map((p) => p.id).sort()).toEqual([twinId, s.remoteId].sort());

    const calls = emulator.requests({ since }).filter((r) => !r.path.startsWith('/v3.0/oauth2/'));
    const posts = calls.filter((r) => r.method === 'POST');
    expect(posts).toHaveLength(1);
    expect(posts[0].status).toBeNull(); // the connection was reset after the pinpoint was stored
    // The walk followed `next` through every page of 13 pinpoints (pages of 5).
    const gets = calls.filter((r) => r.method === 'GET' && r.path.startsWith('/v3.0/pinpoints'));
    expect(gets.length).toBe(3);
    expect(gets.slice(1).every((r) => r.path.includes('cursor='))).toBe(true);
    expect(calls.filter((r) => r.method === 'PUT').map((r) => r.path)).toEqual([
      `/v3.0/pinpoints/${s.remoteId}`,
    ]);
  });

  test('a create that never got a token is not looked for on the remote', async () => {
    const { strapi, emulator } = app;
    // The POST is refused with 401 (the token was revoked), and the new token request fails: no create happened.
    emulator.revokeTokens();
    emulator.scriptFaults([{ kind: 'status', status: 503, pathPrefix: '/v3.0/oauth2/token' }]);
    const since = mark(emulator);
    const place = await createPlace(strapi, { title: 'Tokenless', geo: { lat: 45.1, lng: 5.7 } });
    await app.sync().idle();

    expect(await stateOf(app, PLACE, place.documentId)).toMatchObject({
      status: 'synced',
      lastError: null,
    });
    const calls = emulator.requests({ since });
    expect(calls.filter((r) => r.path.startsWith('/v3.0/oauth2/')).map((r) => r.status)).toEqual([
      503, 200,
    ]);
    // No walk through the listing: the retry simply creates it.
    expect(calls.filter((r) => r.method === 'GET')).toEqual([]);
    expect(
      calls.filter((r) => r.method === 'POST' && r.path === '/v3.0/pinpoints').map((r) => r.status)
    ).toEqual([401, 201]);
    expect(emulator.state().pinpoints.filter((p) => p.name === 'Tokenless')).toHaveLength(1);
  });

  test('of an entry unpublished or deleted before the retry leaves no object behind', async () => {
    const { strapi, emulator } = app;
    // The retry comes long after the editor's change, which the next push then sees first.
    const retry = strapi.config.get('plugin::location-content.retry');
    setPluginConfig(strapi, 'retry', { baseMs: 60_000, maxMs: 60_000, maxAttempts: 12 });
    try {
      emulator.scriptFaults([
        { kind: 'reset-after', method: 'POST', pathPrefix: '/v3.0/pinpoints' },
        { kind: 'reset-after', method: 'POST', pathPrefix: '/v3.0/pinpoints' },
      ]);
      const since = mark(emulator);
      const unpublished = await createPlace(strapi, {
        title: 'Lost then unpublished',
        geo: { lat: 43.3, lng: 5.4 },
      });
      const deleted = await createPlace(strapi, {
        title: 'Lost then deleted',
        geo: { lat: 43.6, lng: 1.44 },
      });
      for (const p of [unpublished, deleted]) {
        const s = await until(async () => {
          const st = await stateOf(app, PLACE, p.documentId);
          return (st?.attempts ?? 0) >= 1 ? st : null;
        }, 'the lost create to be recorded');
        expect(s.remoteId).toBeNull();
      }
      // Both objects exist on the remote, unknown to the plugin.
      expect(emulator.state().pinpoints.filter((p) => p.name.startsWith('Lost then'))).toHaveLength(
        2
      );

      await docs(strapi, PLACE).unpublish({ documentId: unpublished.documentId });
      await docs(strapi, PLACE).delete({ documentId: deleted.documentId });
      await app.sync().idle();

      expect(emulator.state().pinpoints.filter((p) => p.name.startsWith('Lost then'))).toEqual([]);
      expect(await stateOf(app, PLACE, unpublished.documentId)).toBeNull();
      expect(await stateOf(app, PLACE, deleted.documentId)).toBeNull();
      const calls = emulator.requests({ since }).filter((r) => !r.path.startsWith('/v3.0/oauth2/'));
      // Found through the listing and deleted; never created again.
      expect(calls.filter((r) => r.method === 'POST')).toHaveLength(2);
      expect(calls.filter((r) => r.method === 'PUT')).toEqual([]);
      expect(calls.filter((r) => r.method === 'DELETE').map((r) => r.status)).toEqual([204, 204]);
    } finally {
      setPluginConfig(strapi, 'retry', retry);
    }
  });

  test('is still looked for when the next attempt fails before reaching the remote (its token request fails)', async () => {
    const { strapi, emulator } = app;
    emulator.scriptFaults([
      { kind: 'reset-after', method: 'POST', pathPrefix: '/v3.0/pinpoints' },
      // The walk of the next attempt gets a 401 and its new token is refused once.
      { kind: 'status', status: 503, pathPrefix: '/v3.0/oauth2/token' },
    ]);
    const since = mark(emulator);
    const place = await createPlace(strapi, {
      title: 'Lost behind a token',
      geo: { lat: 48.58, lng: 7.75 },
    });
    await until(
      async () => ((await stateOf(app, PLACE, place.documentId))?.attempts ?? 0) >= 1,
      'the lost create to be recorded'
    );
    emulator.revokeTokens();
    await app.sync().idle();

    const calls = emulator.requests({ since });
    // The interleaving really happened: lost POST, walk refused (401), token refused (503), then the walk again.
    expect(calls.map((r) => `${r.method} ${r.path.split('?')[0]} ${r.status}`).slice(0, 4)).toEqual(
      [
        'POST /v3.0/pinpoints null',
        'GET /v3.0/pinpoints 401',
        'POST /v3.0/oauth2/token 503',
        'POST /v3.0/oauth2/token 200',
      ]
    );
    expect(emulator.state().pinpoints.filter((p) => p.name === 'Lost behind a token')).toHaveLength(
      1
    );
    expect(await stateOf(app, PLACE, place.documentId)).toMatchObject({
      status: 'synced',
      lastError: null,
    });
    expect(calls.filter((r) => r.method === 'POST' && r.path === '/v3.0/pinpoints')).toHaveLength(
      1
    );
  });

  test('of an event whose pinpoint is then deleted leaves no event behind, on a remote that keeps events of deleted pinpoints', async () => {
    const { strapi, emulator } = app;
    const retry = strapi.config.get('plugin::location-content.retry');
    setPluginConfig(strapi, 'retry', { baseMs: 60_000, maxMs: 60_000, maxAttempts: 12 });
    emulator.configure({ pinpointDeleteTakesEvents: false });
    try {
      const place = await createPlace(strapi, {
        title: 'Short-lived stage',
        geo: { lat: 50.63, lng: 3.06 },
      });
      await app.sync().idle();
      const pinpointId = await remoteIdOf(app, PLACE, place.documentId);
      emulator.scriptFaults([{ kind: 'reset-after', method: 'POST', pathPrefix: '/v3.0/events' }]);
      const happening = await createHappening(strapi, {
        title: 'Cancelled show',
        slots: [{ from: '2026-10-01T20:00:00Z' }],
        place: place.documentId,
      });
      await until(
        async () => ((await stateOf(app, HAPPENING, happening.documentId))?.attempts ?? 0) >= 1,
        'the lost create to be recorded'
      );
      expect(emulator.state().events.filter((e) => e.name === 'Cancelled show')).toHaveLength(1);

      const since = mark(emulator);
      await docs(strapi, PLACE).delete({ documentId: place.documentId });
      await until(
        async () => (await stateOf(app, PLACE, place.documentId)) === null,
        'the pinpoint to be deleted'
      );
      // The event's retry is a minute away: a resync brings it forward.
      await app.sync().resync();
      await until(
        async () => (await app.sync().status()).resync?.state === 'done',
        'the resync to finish'
      );
      await app.sync().idle();

      expect(emulator.state().pinpoints.find((p) => p.id === pinpointId)).toBeUndefined();
      expect(emulator.state().events.filter((e) => e.name === 'Cancelled show')).toEqual([]);
      const s = await stateIn(app, HAPPENING, happening.documentId);
      expect(s).toMatchObject({ status: 'failed', remoteId: null });
      expect(s.lastError).toMatch(/pinpoint/);
      const calls = emulator.requests({ since }).filter((r) => r.path.startsWith('/v3.0/events'));
      expect(
        calls.map((r) => `${r.method} ${r.path.replace(/\d{4,}/g, ':id')} ${r.status}`)
      ).toEqual([
        // This remote refuses to filter by a pinpoint that is gone: every event is looked at.
        'GET /v3.0/events?pinpoint=:id 400',
        'GET /v3.0/events 200',
        'DELETE /v3.0/events/:id 204',
      ]);
    } finally {
      emulator.configure({ pinpointDeleteTakesEvents: true });
      setPluginConfig(strapi, 'retry', retry);
    }
  });

  test('is found when an object is deleted during the walk of offset pages (the real service pages so)', async () => {
    const { strapi, emulator } = app;
    emulator.configure({ pagination: 'offset' });
    try {
      // The lost pinpoint will open the last page (pages of 5): a delete of an earlier object
      // while that page is on its way moves it onto the page already read.
      while (emulator.state().pinpoints.length % 5 !== 0) {
        await createPlace(strapi, {
          title: `Page filler ${emulator.state().pinpoints.length}`,
          geo: { lat: 10, lng: emulator.state().pinpoints.length },
        });
        await app.sync().idle();
      }
      const before = emulator.state().pinpoints.map((p) => p.id);
      const pagesBefore = before.length / 5;
      emulator.scriptFaults([
        { kind: 'reset-after', method: 'POST', pathPrefix: '/v3.0/pinpoints' },
        ...Array.from({ length: pagesBefore }, () => ({
          kind: 'pass' as const,
          method: 'GET',
          pathPrefix: '/v3.0/pinpoints',
        })),
        { kind: 'latency', latencyMs: 800, method: 'GET', pathPrefix: '/v3.0/pinpoints' },
      ]);
      const since = mark(emulator);
      const place = await createPlace(strapi, {
        title: 'Slipping',
        geo: { lat: 59.91, lng: 10.75 },
      });
      const pageGets = () =>
        emulator
          .requests({ since })
          .filter((r) => r.method === 'GET' && r.path.startsWith('/v3.0/pinpoints'));
      await until(() => pageGets().length >= pagesBefore, 'the walk to reach its last page');
      // Someone else deletes an early pinpoint meanwhile.
      expect((await remoteCall(emulator, 'DELETE', `/v3.0/pinpoints/${before[0]}`)).status).toBe(
        204
      );
      await app.sync().idle();

      expect(emulator.state().pinpoints.filter((p) => p.name === 'Slipping')).toHaveLength(1);
      expect(await stateOf(app, PLACE, place.documentId)).toMatchObject({
        status: 'synced',
        lastError: null,
      });
      const calls = emulator.requests({ since });
      expect(calls.filter((r) => r.method === 'POST' && r.path === '/v3.0/pinpoints')).toHaveLength(
        1
      );
      // The first walk ended on an empty page (its count had changed); the second found it.
      expect(pageGets()[pagesBefore]).toMatchObject({ fault: 'latency', status: 200 });
      expect(pageGets().length).toBeGreaterThan(pagesBefore + 1);
    } finally {
      emulator.configure({ pagination: 'cursor' });
    }
  });

  test('works for events and lists too', async () => {
    const { strapi, emulator } = app;
    const place = await createPlace(strapi, { title: 'Stage', geo: { lat: 44.8, lng: -0.58 } });
    await app.sync().idle();
    emulator.scriptFaults([
      { kind: 'reset-after', method: 'POST', pathPrefix: '/v3.0/events' },
      { kind: 'reset-after', method: 'POST', pathPrefix: '/v3.0/lists' },
    ]);
    const happening = await createHappening(strapi, {
      title: 'Opera',
      slots: [{ from: '2026-09-01T19:00:00Z', to: '2026-09-01T22:00:00Z' }],
      place: place.documentId,
    });
    const tour = await createTour(strapi, { name: 'Stages', stops: [place.documentId] });
    await app.sync().idle();
    expect(emulator.state().events.filter((e) => e.name === 'Opera')).toHaveLength(1);
    expect(emulator.state().lists.filter((l) => l.name === 'Stages')).toHaveLength(1);
    expect(await stateOf(app, HAPPENING, happening.documentId)).toMatchObject({ status: 'synced' });
    expect((await remoteOf(app, TOUR, tour.documentId)).members).toEqual([
      await remoteIdOf(app, PLACE, place.documentId),
    ]);
    expect(emulator.faults().script ?? []).toEqual([]);
  });

  // A 2xx that cannot be read says the POST was carried out, not what it made: like a lost answer.
  test.each([
    ['cut short', undefined, 1],
    ['not JSON', '<html><body>Created</body></html>', 2],
    ['JSON without an id', { detail: 'Created.' }, 3],
  ])(
    'answered 2xx with a body %s: the object it made is adopted, never failed nor created twice',
    async (what, body, n) => {
      const { strapi, emulator } = app;
      const title = `Unreadable ${what}`;
      emulator.scriptFaults([
        {
          kind: 'garble-after',
          method: 'POST',
          pathPrefix: '/v3.0/pinpoints',
          ...(body === undefined ? {} : { body }),
        },
      ]);
      const since = mark(emulator);
      const place = await createPlace(strapi, { title, geo: { lat: 43.3, lng: 5.3 + n } });
      await app.sync().idle();

      const copies = emulator.state().pinpoints.filter((p) => p.name === title);
      expect(copies).toHaveLength(1);
      expect(await stateOf(app, PLACE, place.documentId)).toMatchObject({
        status: 'synced',
        lastError: null,
        remoteId: copies[0].id,
      });
      const calls = emulator
        .requests({ since })
        .filter((r) => r.method !== 'GET' && !r.path.startsWith('/v3.0/oauth2/'));
      expect(calls.map((r) => [r.method, r.path, r.status, r.fault])).toEqual([
        ['POST', '/v3.0/pinpoints', 201, 'garble-after'],
        ['PUT', `/v3.0/pinpoints/${copies[0].id}`, 200, null],
      ]);
    }
  );
});

describe('a restart', () => {
  test('with pending work loses nothing: queued rows, rows backing off and a resync resume at boot', async () => {
    const emulator = await startEmulator({ strict: true });
    const appDir = await makeAppDir();
    let app: TestApp | undefined;
    try {
      // First run: the sync is off, every change waits in the outbox.
      app = await startApp({
        appDir,
        emulatorHandle: emulator,
        patchConfig: (c) => ((c['location-content'].config.syncEnabled = false), c),
      });
      const icon = await createIcon(app.strapi, 'Bench');
      const place = await createPlace(app.strapi, { title: 'Park', icon: icon.documentId });
      const happening = await createHappening(app.strapi, {
        title: 'Picnic',
        slots: [{ from: '2026-07-01T12:00:00Z' }],
        place: place.documentId,
      });
      const tour = await createTour(app.strapi, { name: 'Green', stops: [place.documentId] });
      const report = await app.sync().status();
      expect(report.queue.depth).toBe(4);
      expect(counts(emulator)).toEqual({ pinpoints: 0, events: 0, categories: 0, lists: 0 });
      await app.stop();
      app = undefined;

      // Second run: the sync is on but the remote fails every write; the rows back off.
      emulator.setFaults({
        rules: [
          { kind: 'status', status: 503, method: ['POST', 'PUT', 'DELETE'], pathPrefix: '/v3.0/' },
        ],
      });
      app = await startApp({ appDir, emulatorHandle: emulator });
      await until(
        async () => ((await stateOf(app!, ICON, icon.documentId))?.attempts ?? 0) >= 1,
        'a failed attempt'
      );
      // The category and the list back off in the outbox; the pinpoint and event wait for them in their state.
      await until(
        async () => (await app!.sync().status()).counts.pending === 4,
        'four pending entries'
      );
      expect((await app.sync().status()).queue.depth).toBeGreaterThanOrEqual(2);
      await app.stop();
      app = undefined;

      // Third run, the remote is back: everything arrives once, in order.
      emulator.clearFaults();
      app = await startApp({ appDir, emulatorHandle: emulator });
      await app.sync().idle();
      const categoryId = await remoteIdOf(app, ICON, icon.documentId);
      const pinpoint = await remoteOf(app, PLACE, place.documentId);
      expect(pinpoint).toMatchObject({ name: 'Park', category: categoryId });
      expect(await remoteOf(app, HAPPENING, happening.documentId)).toMatchObject({
        name: 'Picnic',
        pinpoint: pinpoint.id,
      });
      expect((await remoteOf(app, TOUR, tour.documentId)).members).toEqual([pinpoint.id]);
      expect(counts(emulator)).toEqual({ pinpoints: 1, events: 1, categories: 1, lists: 1 });

      // A resync started before a stop finishes after the restart.
      // Changed behind the plugin's back (no document service call): only a resync can see it.
      await app.strapi.db
        .query(PLACE)
        .updateMany({ where: { documentId: place.documentId }, data: { title: 'Park (renamed)' } });
      app.strapi.config.set('plugin::location-content.syncEnabled', false);
      const job = await app.sync().resync();
      await until(
        async () => (await app!.sync().status()).resync?.total === 4,
        'the resync to list every entry'
      );
      await app.stop();
      app = undefined;
      app = await startApp({ appDir, emulatorHandle: emulator });
      await app.sync().idle();
      await until(
        async () => (await app!.sync().status()).resync?.state === 'done',
        'the resync to finish'
      );
      const progress = (await app.sync().status()).resync;
      expect(progress).toMatchObject({
        id: job.id,
        state: 'done',
        total: 4,
        done: 1,
        skipped: 3,
        failed: 0,
      });
      expect(await remoteOf(app, PLACE, place.documentId)).toMatchObject({
        name: 'Park (renamed)',
      });
      expect(counts(emulator)).toEqual({ pinpoints: 1, events: 1, categories: 1, lists: 1 });
    } finally {
      await app?.stop();
      await emulator.stop();
      await removeDir(appDir);
    }
  });

  test('refs recorded before the refs table existed are indexed at boot: an unpublished pinpoint still takes its events along', async () => {
    const emulator = await startEmulator({ strict: true });
    const appDir = await makeAppDir();
    let app: TestApp | undefined;
    try {
      app = await startApp({ appDir, emulatorHandle: emulator });
      const place = await createPlace(app.strapi, {
        title: 'Lighthouse',
        geo: { lat: 48.4, lng: -4.8 },
      });
      const happening = await createHappening(app.strapi, {
        title: 'Night visit',
        slots: [{ from: '2026-05-01T20:00:00.000Z', to: '2026-05-01T22:00:00.000Z' }],
        place: place.documentId,
      });
      await app.sync().idle();
      const eventId = await remoteIdOf(app, HAPPENING, happening.documentId);
      expect(emulator.state().events.map((e) => e.id)).toContain(eventId);

      // As an install from before the table: the refs only in the states' JSON.
      const refs = () => app!.strapi.db.metadata.get('plugin::location-content.sync-ref').tableName;
      await app.strapi.db.connection(refs()).del();
      await app.stop();
      app = await startApp({ appDir, emulatorHandle: emulator });
      const rebuilt: Array<{ entry_document_id: string; target: string }> = await app.strapi.db
        .connection(refs())
        .select('*');
      expect(rebuilt.map((r) => [r.entry_document_id, r.target])).toContainEqual([
        happening.documentId,
        `${PLACE}|${place.documentId}|en`,
      ]);

      // The pinpoint goes: the event's state is found through the rebuilt refs and follows.
      await docs(app.strapi, PLACE).unpublish({ documentId: place.documentId });
      await app.sync().idle();
      expect(emulator.state().events.map((e) => e.id)).not.toContain(eventId);
      const event = await stateIn(app, HAPPENING, happening.documentId);
      expect(event.remoteId).toBeNull();
      expect(event.lastError).toMatch(/pinpoint/);
    } finally {
      await app?.stop();
      await emulator.stop();
      await removeDir(appDir);
    }
  });
});
