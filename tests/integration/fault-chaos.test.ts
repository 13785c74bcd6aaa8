/**
 * A remote that misbehaves all the time: 20% of calls answer 5xx, 5% reset the connection before
 * they are applied and 5% after (the answer is lost), bursts of 429, and every token revoked
 * midway. Meanwhile editors create, rename, unpublish and delete. Once the queue drains, the
 * remote state equals the local content: every object once, with the right fields and links.
 */
jest.setTimeout(300_000);
import type { Modules } from '@strapi/strapi';
import { writeFileSync } from 'node:fs';
import { startApp, type TestApp, stopApp } from '../helpers/strapi';
import { createHappening, createIcon, createPlace, createTour } from '../helpers/content';
import { docs, HAPPENING, ICON, mark, PLACE, TOUR, until, writes } from '../helpers/sync';

let app: TestApp;

beforeAll(async () => {
  app = await startApp({
    // Offset pages, as the real service pages: deletes during a recovery walk shift them.
    emulator: { pageSize: 25, requestLogSize: 50_000, pagination: 'offset' },
    patchConfig: (config) => {
      const lc = config['location-content'].config;
      // Room for long runs of bad luck: at 30% failures, 40 attempts never all fail.
      lc.retry = { baseMs: 20, maxMs: 300, maxAttempts: 40 };
      lc.rateLimit = { requestsPerSecond: 400, concurrency: 4 };
      lc.requestTimeoutMs = 3_000;
      return config;
    },
  });
});

afterAll(() => stopApp(app));

/** Rules are rolled in order and the first hit wins: these give 20% / 5% / 5% of all calls. */
// CHAOS_SEED=<n> plays other rolls (the interleavings differ from run to run anyway).
const CHAOS = {
  seed: Number(process.env.CHAOS_SEED ?? 20260101),
  rules: [
    { kind: 'status' as const, status: 503, probability: 0.2 },
    { kind: 'reset-before' as const, probability: 0.05 / 0.8 },
    { kind: 'reset-after' as const, probability: 0.05 / (0.8 * (1 - 0.05 / 0.8)) },
  ],
};
// Each 429 pauses the whole queue for its Retry-After: 1 s (about three pauses per burst), then 0
// (the 100 ms floor), the header's two forms, without seconds of a healthy queue waiting.
const burst429 = (retryAfter: number) =>
  Array.from({ length: 12 }, () => ({ kind: 'status' as const, status: 429, retryAfter }));

type Entry = Modules.Documents.AnyDocument;
const published = (uid: string, populate: string[]): Promise<Entry[]> =>
  docs(app.strapi, uid).findMany({ status: 'published', populate, limit: 1000 });

test('under 5xx, resets before and after apply, 429 bursts and a revoked token, the remote converges to the content', async () => {
  const { strapi, emulator } = app;
  emulator.setFaults(CHAOS);
  const since = mark(emulator);

  const icons = [];
  for (let i = 0; i < 6; i++) icons.push(await createIcon(strapi, `Chaos icon ${i}`));
  const places = [];
  for (let i = 0; i < 40; i++) {
    places.push(
      await createPlace(strapi, {
        title: `Chaos place ${i}`,
        address: `${i} Chaos Street`,
        geo: { lat: 40 + i / 10, lng: -3 + i / 10 },
        ...(i % 3 === 0 ? {} : { icon: icons[i % icons.length].documentId }),
      })
    );
    if (i === 15) emulator.scriptFaults(burst429(1));
    // Midway, every token dies: the plugin must get a new one and go on.
    if (i === 20) emulator.revokeTokens();
  }
  const happenings = [];
  for (let i = 0; i < 12; i++) {
    happenings.push(
      await createHappening(strapi, {
        title: `Chaos happening ${i}`,
        slots: [
          {
            from: `2026-07-${String(i + 1).padStart(2, '0')}T18:00:00Z`,
            to: `2026-07-${String(i + 1).padStart(2, '0')}T20:00:00Z`,
          },
        ],
        place: places[i].documentId,
      })
    );
  }
  const tours = [];
  for (let i = 0; i < 4; i++) {
    tours.push(
      await createTour(strapi, {
        name: `Chaos tour ${i}`,
        stops: places.slice(12 + i * 3, 15 + i * 3 + (i % 2)).map((p) => p.documentId),
      })
    );
  }

  // Editors keep working while the queue fights the remote.
  await until(() => emulator.stats().byStatus['201'] >= 20, 'some objects to be created', 60_000);
  emulator.scriptFaults(burst429(0));
  emulator.revokeTokens();
  for (const [k, p] of places.slice(30, 36).entries()) {
    await docs(strapi, PLACE).update({
      documentId: p.documentId,
      data: { title: `Chaos place ${30 + k} (renamed)`, geo: { lat: 10, lng: 20 + k } },
    });
    await docs(strapi, PLACE).publish({ documentId: p.documentId });
  }
  for (const p of places.slice(36, 38))
    await docs(strapi, PLACE).unpublish({ documentId: p.documentId });
  for (const p of places.slice(38, 40))
    await docs(strapi, PLACE).delete({ documentId: p.documentId });
  await docs(strapi, ICON).update({
    documentId: icons[1].documentId,
    data: { label: 'Chaos icon 1 (renamed)' },
  });
  await docs(strapi, TOUR).update({
    documentId: tours[0].documentId,
    data: { stops: [places[20].documentId, places[21].documentId] },
  });
  await docs(strapi, TOUR).publish({ documentId: tours[0].documentId });

  await app.sync().idle({ timeoutMs: 240_000 });
  const chaos = emulator.stats();
  emulator.clearFaults();

  const report = await app.sync().status();
  // The worker's sweep for entries left pending with nothing queued is a safety net, not part of
  // converging: each firing is a race to find (it names the entries), so none may fire here.
  expect(app.logs.filter((l) => l.includes('had nothing queued'))).toEqual([]);
  expect(report.failed).toEqual([]);
  expect(report.counts.pending).toBe(0);
  expect(report.queue.depth).toBe(0);

  // The local content as it is now, and the remote object of each entry.
  const remote = emulator.state();
  const stateOf = (uid: string, documentId: string, locale?: string) =>
    app.sync().stateOf({ contentType: uid, documentId, locale });
  const localIcons: Entry[] = await docs(strapi, ICON).findMany({ limit: 100 });
  const localPlaces = await published(PLACE, ['geo', 'icon']);
  const localHappenings = await published(HAPPENING, ['slots', 'place']);
  const localTours = await published(TOUR, ['stops']);
  expect(localPlaces).toHaveLength(36);

  // Exactly one remote object per entry: no duplicate, nothing left over (names are unique here,
  // so a failure names the object twice or left behind).
  const names = (objects: Array<{ name: string }>) => objects.map((o) => o.name).sort();
  // CHAOS_DUMP=<file> keeps what it takes to replay a failure: every call, the states, the log.
  if (process.env.CHAOS_DUMP) {
    const states = await strapi.db.query('plugin::location-content.sync-state').findMany({});
    writeFileSync(
      process.env.CHAOS_DUMP,
      JSON.stringify(
        {
          requests: emulator.requests(),
          remote,
          states,
          logs: app.logs,
          places: places.map((p) => p.documentId),
        },
        null,
        1
      )
    );
  }
  expect(names(remote.categories)).toEqual(names(localIcons.map((i) => ({ name: i.label }))));
  expect(names(remote.pinpoints)).toEqual(names(localPlaces.map((p) => ({ name: p.title }))));
  expect(names(remote.events)).toEqual(names(localHappenings.map((h) => ({ name: h.title }))));
  expect(names(remote.lists)).toEqual(names(localTours.map((t) => ({ name: t.name }))));

  const categoryOf = new Map<string, number>();
  for (const icon of localIcons) {
    const s = await stateOf(ICON, icon.documentId);
    expect(s).toMatchObject({ status: 'synced' });
    expect(remote.categories.find((c) => c.id === s!.remoteId)).toMatchObject({ name: icon.label });
    categoryOf.set(icon.documentId, s!.remoteId!);
  }
  const pinpointOf = new Map<string, number>();
  for (const place of localPlaces) {
    const s = await stateOf(PLACE, place.documentId);
    expect(s).toMatchObject({ status: 'synced' });
    const p = remote.pinpoints.find((x) => x.id === s!.remoteId);
    expect(p).toMatchObject({
      name: place.title,
      address: place.address,
      latitude: Number(place.geo.lat),
      longitude: Number(place.geo.lng),
      category: place.icon ? categoryOf.get(place.icon.documentId) : null,
    });
    pinpointOf.set(place.documentId, s!.remoteId!);
  }
  for (const h of localHappenings) {
    const s = await stateOf(HAPPENING, h.documentId);
    expect(s).toMatchObject({ status: 'synced' });
    expect(remote.events.find((e) => e.id === s!.remoteId)).toMatchObject({
      name: h.title,
      pinpoint: pinpointOf.get(h.place.documentId),
      dates: h.slots.map((slot: { from: string; to: string }) => ({
        start: new Date(slot.from).toISOString(),
        end: new Date(slot.to).toISOString(),
      })),
    });
  }
  for (const t of localTours) {
    const s = await stateOf(TOUR, t.documentId);
    expect(s).toMatchObject({ status: 'synced' });
    const list = remote.lists.find((l) => l.id === s!.remoteId)!;
    expect(list.name).toBe(t.name);
    expect([...list.members].sort()).toEqual(
      t.stops.map((p: Entry) => pinpointOf.get(p.documentId)).sort()
    );
  }
  // Unpublished and deleted places are gone from the remote.
  for (const p of places.slice(36, 40)) expect(await stateOf(PLACE, p.documentId)).toBeNull();

  // The chaos really happened.
  expect(chaos.byStatus['503']).toBeGreaterThan(10);
  expect(chaos.byStatus['429']).toBeGreaterThanOrEqual(24);
  expect(chaos.resets).toBeGreaterThan(5);
  expect(chaos.byStatus['401'] ?? 0).toBeGreaterThan(0);
  expect(writes(emulator, since).length).toBeGreaterThan(0);

  // Converged means converged: with the remote healthy again, a resync finds nothing to send.
  const quiet = mark(emulator);
  await app.sync().resync();
  await until(
    async () => (await app.sync().status()).resync?.state === 'done',
    'the resync to finish',
    60_000
  );
  await app.sync().idle();
  expect(writes(emulator, quiet)).toEqual([]);
});
