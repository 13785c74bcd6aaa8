jest.setTimeout(180_000);
import type { LinkProposal } from '../../shared/contracts/inventory';
import { startApp, stopApp, type TestApp } from '../helpers/strapi';
import { createHappening, createIcon, createPlace, createTour } from '../helpers/content';
import {
  HAPPENING,
  ICON,
  mark,
  PLACE,
  setPluginConfig,
  stateOf,
  TOUR,
  remoteIdOf,
} from '../helpers/sync';

/** Onboarding an account that already has content: entries linked to the objects already there. */

let app: TestApp;

beforeAll(async () => {
  // A remote that keeps coordinates to 5 decimals (about 1 m), as a remote may.
  app = await startApp({
    emulator: { pageSize: 5, coordinateDecimals: 5 },
    patchConfig: (c) => ((c['location-content'].config.syncEnabled = false), c),
  });
});

afterAll(() => stopApp(app));

test('proposes links by what identifies each object, and confirming updates them in place', async () => {
  const { strapi, emulator } = app;
  // What the account already holds (made in the provider's portal, by another plugin, by scripts).
  const [museum] = emulator.seed('categories', [{ name: 'museum ' }]);
  const [hall, kioskA, kioskB, castle1, castle2, rock, other] = emulator.seed('pinpoints', [
    {
      name: '  Town   Hall ',
      latitude: 47.218371,
      longitude: -1.553621,
      category: museum,
    },
    { name: 'Kiosk', latitude: 47.2, longitude: -1.55 },
    { name: 'Kiosk', latitude: 47.20045, longitude: -1.55 }, // 50 m north: a near twin
    { name: 'Castle', latitude: 47.2162, longitude: -1.5497 },
    { name: 'castle', latitude: 47.2162, longitude: -1.5497 }, // two copies of one place
    { name: 'Orphan rock', latitude: 10, longitude: 10 },
    { name: 'Elsewhere', latitude: 11, longitude: 11 },
  ]);
  const [concert] = emulator.seed('events', [
    {
      name: 'Concert',
      pinpoint: hall,
      dates: [{ start: '2026-07-01T18:00:00.000Z', end: '2026-07-01T20:00:00.000Z' }],
    },
  ]);
  const [tourList] = emulator.seed('lists', [{ name: 'Tour A' }]);
  const { access_token } = emulator.issueToken();
  await fetch(`${emulator.baseUrl}/v3.0/lists/${tourList}/pinpoints`, {
    method: 'POST',
    headers: {
      Authorization: `Bearer ${access_token}`,
      'Content-Type': 'application/json',
    },
    body: JSON.stringify([{ id: hall }, { id: other }]),
  });

  // The editors' content, made before the plugin ever synced (the sync is off).
  const icon = await createIcon(strapi, 'Museum');
  const hallEntry = await createPlace(strapi, {
    title: 'Town Hall',
    geo: { lat: 47.2183712, lng: -1.5536208 },
    icon: icon.documentId,
  });
  const kioskEntryA = await createPlace(strapi, {
    title: 'Kiosk',
    geo: { lat: 47.2, lng: -1.55 },
  });
  const kioskEntryB = await createPlace(strapi, {
    title: 'KIOSK',
    geo: { lat: 47.20045, lng: -1.55 },
  });
  const castleEntry = await createPlace(strapi, {
    title: 'Castle',
    geo: { lat: 47.2162, lng: -1.5497 },
  });
  const cafeEntry = await createPlace(strapi, {
    title: 'New cafe',
    geo: { lat: 47.3, lng: -1.5 },
  });
  const hallTwin = await createPlace(strapi, {
    title: 'Town Hall',
    geo: { lat: 47.2188, lng: -1.5536 },
  }); // same name, 50 m away: not the hall
  const concertEntry = await createHappening(strapi, {
    title: 'Concert',
    slots: [{ from: '2026-07-01T18:00:00Z', to: '2026-07-01T20:00:00Z' }],
    place: hallEntry.documentId,
  });
  const tourEntry = await createTour(strapi, {
    name: 'Tour A',
    stops: [hallEntry.documentId, kioskEntryA.documentId],
  });

  await expect(app.sync().link({ dryRun: true })).rejects.toThrow(/inventory first/);
  await app.sync().inventory();
  const before = mark(emulator);
  const proposal: LinkProposal = await app.sync().link({ dryRun: true });

  const linkedTo = Object.fromEntries(proposal.linked.map((l) => [l.documentId, l.remoteId]));
  expect(linkedTo).toEqual({
    [icon.documentId]: museum,
    [hallEntry.documentId]: hall,
    [kioskEntryA.documentId]: kioskA,
    [kioskEntryB.documentId]: kioskB,
    [concertEntry.documentId]: concert,
    [tourEntry.documentId]: tourList,
  });
  expect(proposal.ambiguous).toHaveLength(1);
  expect(proposal.ambiguous[0]).toMatchObject({
    documentId: castleEntry.documentId,
    resource: 'pinpoint',
  });
  expect(proposal.ambiguous[0].candidates.map((c) => c.remoteId).sort()).toEqual(
    [castle1, castle2].sort()
  );
  expect(proposal.unmatched.map((u) => u.documentId).sort()).toEqual(
    [cafeEntry.documentId, hallTwin.documentId].sort()
  );
  expect(proposal.unowned.map((u) => u.remoteId).sort()).toEqual([rock, other].sort());
  expect(proposal.counts).toEqual({
    linked: 6,
    ambiguous: 1,
    unmatched: 2,
    unowned: 2,
  });
  expect(proposal.applied).toBe(0);
  // A proposal reads the inventory only.
  expect(emulator.requests({ since: before })).toEqual([]);
  expect((await stateOf(app, PLACE, hallEntry.documentId))?.remoteId ?? null).toBeNull();

  // Confirm, picking the first copy of the castle.
  const castleKey = `${PLACE}|${castleEntry.documentId}|${proposal.ambiguous[0].locale}`;
  const done = await app.sync().link({ dryRun: false, choices: { [castleKey]: castle1 } });
  expect(done.applied).toBe(7);
  expect(await remoteIdOf(app, PLACE, hallEntry.documentId)).toBe(hall);

  expect((await app.sync().status()).inventory.unowned).toBe(3);
  // An object owned by an entry is never proposed again.
  const again: LinkProposal = await app.sync().link({ dryRun: true });
  expect(again.counts).toMatchObject({ linked: 0, ambiguous: 0, unmatched: 2 });
  expect(again.unowned.map((u) => u.remoteId).sort()).toEqual([castle2, rock, other].sort());

  // The sync goes on: linked entries are updated in place, only the unmatched ones are created.
  const since = mark(emulator);
  const pinpointsBefore = emulator.state().pinpoints.length;
  setPluginConfig(strapi, 'syncEnabled', true);
  await app.sync().resync();
  await app.sync().idle({ timeoutMs: 120_000 });
  const calls = emulator.requests({ since }).filter((r) => !r.path.startsWith('/v3.0/oauth2/'));
  // Creates only: membership additions are POSTs too.
  const posts = calls.filter(
    (r) => r.method === 'POST' && !/\/lists\/\d+\/pinpoints$/.test(r.path)
  );
  expect(
    posts.map((r) => `${r.path} ${(r.body as { name?: string } | undefined)?.name}`).sort()
  ).toEqual(['/v3.0/pinpoints New cafe', '/v3.0/pinpoints Town Hall'].sort());
  for (const id of [hall, kioskA, kioskB, castle1])
    expect(calls.some((r) => r.method === 'PUT' && r.path === `/v3.0/pinpoints/${id}`)).toBe(true);
  expect(calls.some((r) => r.method === 'PUT' && r.path === `/v3.0/categories/${museum}`)).toBe(
    true
  );
  expect(calls.some((r) => r.method === 'PUT' && r.path === `/v3.0/events/${concert}`)).toBe(true);
  expect(emulator.state().pinpoints.length).toBe(pinpointsBefore + 2);
  for (const [uid, doc] of [
    [ICON, icon],
    [HAPPENING, concertEntry],
    [TOUR, tourEntry],
    [PLACE, kioskEntryB],
  ] as const) {
    expect(await stateOf(app, uid, doc.documentId)).toMatchObject({
      status: 'synced',
    });
  }
  // The list's members reconciled by difference: the one no stop names is removed, the kiosk added.
  const list = emulator.state().lists.find((l) => l.id === tourList);
  expect([...list!.members].sort()).toEqual([hall, kioskA].sort());
  const membership = calls.filter((r) => r.path === `/v3.0/lists/${tourList}/pinpoints`);
  expect(membership.map((r) => [r.method, r.body])).toEqual(
    expect.arrayContaining([
      ['POST', [{ id: kioskA }]],
      ['DELETE', [{ id: other }]],
    ])
  );
  expect(emulator.state().pinpoints.find((p) => p.id === hall)).toMatchObject({
    name: 'Town Hall',
    category: museum,
  });
});
