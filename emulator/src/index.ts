/**
 * Location Content REST API v3.0 emulator: a local server faithful to the contract
 * (shared/location-content-api.md) with the real service's habits and fault injection.
 *
 *   const emu = await startEmulator({ strict: true });
 *   // emu.baseUrl = http://127.0.0.1:PORT, emu.clientId / emu.clientSecret
 *   ...
 *   await emu.stop();
 */
import { Emulator } from './server';
import type { EmulatorHandle, EmulatorOptions } from './types';

export type {
  DateRangeOut,
  DateStyle,
  EmulatorClient,
  EmulatorConfig,
  EmulatorHandle,
  EmulatorOptions,
  EmulatorState,
  EmulatorStats,
  EventState,
  CategoryState,
  FaultKind,
  FaultSpec,
  FaultsConfig,
  ListState,
  MediaMeta,
  PinpointState,
  PutMode,
  RateLimitConfig,
  RequestFilter,
  RequestLogEntry,
  ResourceKind,
  TokenResponse,
} from './types';
export { EmulatorApiError } from './http';
export { DEFAULT_CONFIG } from './config';

/** Start an emulator on 127.0.0.1 (port 0 = a free port) and resolve once it listens. */
export async function startEmulator(options: EmulatorOptions = {}): Promise<EmulatorHandle> {
  const port = options.port ?? 0;
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new TypeError('port must be an integer 0-65535');
  const emu = new Emulator(options);
  await emu.listen(port);
  const first = emu.auth.listClients()[0]!;
  return {
    baseUrl: emu.baseUrl,
    port: emu.port,
    clientId: first.clientId,
    clientSecret: first.clientSecret,
    stop: () => emu.stop(),
    state: () => emu.store.snapshot(emu.auth.activeCount()),
    requests: (filter) => emu.log.list(filter),
    clearRequests: () => emu.log.clear(),
    stats: () => emu.log.stats(),
    reset: (opts) => emu.reset(opts),
    config: () => ({ ...emu.cfg }),
    configure: (patch) => emu.configure(patch),
    setFaults: (faults) => emu.faults.set(faults),
    scriptFaults: (entries) => emu.faults.append(entries),
    faults: () => emu.faults.get(),
    clearFaults: () => emu.faults.set(null),
    release: () => emu.release(),
    held: () => emu.held,
    revokeTokens: (target) => emu.auth.revoke(target),
    issueToken: (clientId) => emu.issueToken(clientId),
    advanceClock: (ms) => emu.clock.advance(ms),
    addClient: (client) => emu.auth.addClient(client),
    create: (kind, body) => emu.createObject(kind, body),
    seed: (kind, bodies) => bodies.map((b) => Number(emu.createObject(kind, b).id)),
    tamper: (kind, id, patch) => {
      const rec = emu.store[kind].get(id) as unknown as Record<string, unknown> | undefined;
      if (!rec) throw new Error(`no ${kind} ${id}`);
      for (const [key, value] of Object.entries(patch)) {
        if (key === 'media_url' || key === 'image_url') {
          const field = key === 'media_url' ? 'media' : 'image';
          // Not in the media store: the URL is served by whoever the test says.
          rec[field] =
            value === null
              ? null
              : {
                  id: 0,
                  owner: { kind: 'pinpoint', id },
                  url: value,
                  path: '',
                  name: 'x',
                  type: '',
                  size: 0,
                  sha256: '',
                  bytes: Buffer.alloc(0),
                };
        } else rec[key] = value;
      }
    },
  };
}
