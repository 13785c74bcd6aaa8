import { startEmulator, type EmulatorHandle } from '../../emulator/src';

/** Accounts that already hold content, and a remote that keeps coordinates rounded. */
let emu: EmulatorHandle;

beforeAll(async () => {
  emu = await startEmulator({ strict: true });
});
afterEach(() => emu.reset());
afterAll(() => emu.stop());

test('seed creates many objects at once, in process and through the control route', async () => {
  const ids = emu.seed(
    'pinpoints',
    Array.from({ length: 2000 }, (_, i) => ({ name: `P${i}`, latitude: 1, longitude: 2 }))
  );
  expect(ids).toHaveLength(2000);
  expect(new Set(ids).size).toBe(2000);
  const res = await fetch(`${emu.baseUrl}/__emulator/seed/lists`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify([{ name: 'A' }, { name: 'B' }]),
  });
  expect(res.status).toBe(201);
  expect(((await res.json()) as { ids: number[] }).ids).toHaveLength(2);
  expect(emu.state().pinpoints).toHaveLength(2000);
  expect(emu.state().lists.map((l) => l.name)).toEqual(['A', 'B']);
  // Not an array: a clear 400.
  const bad = await fetch(`${emu.baseUrl}/__emulator/seed/lists`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: '{"name":"A"}',
  });
  expect(bad.status).toBe(400);
  // Same validation as a create.
  expect(() => emu.seed('pinpoints', [{ name: 'No position' }])).toThrow();
});

test('coordinateDecimals rounds stored coordinates; null keeps them as sent', () => {
  emu.configure({ coordinateDecimals: 5 });
  const [rounded] = emu.seed('pinpoints', [
    { name: 'R', latitude: 47.2183712, longitude: -1.5536208 },
  ]);
  emu.configure({ coordinateDecimals: null });
  const [kept] = emu.seed('pinpoints', [
    { name: 'K', latitude: 47.2183712, longitude: -1.5536208 },
  ]);
  const byId = new Map(emu.state().pinpoints.map((p) => [p.id, p]));
  expect(byId.get(rounded)).toMatchObject({ latitude: 47.21837, longitude: -1.55362 });
  expect(byId.get(kept)).toMatchObject({ latitude: 47.2183712, longitude: -1.5536208 });
  expect(() => emu.configure({ coordinateDecimals: 20 })).toThrow(/coordinateDecimals/);
});
