/**
 * The control API under /__emulator: what tests, benches and the CLI use to look at and steer
 * the emulator. Never faulted, rate limited nor logged, so that steering never disturbs what
 * is measured.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  EmulatorApiError,
  json,
  methodNotAllowed,
  parseJsonBody,
  readBody,
  writeReply,
  type Reply,
} from './http';
import type { Emulator } from './server';
import type { EmulatorClient, FaultsConfig, RequestFilter, ResourceKind } from './types';

/** What the control routes read and call of the emulator. */
export type ControlHost = Pick<
  Emulator,
  | 'baseUrl'
  | 'auth'
  | 'cfg'
  | 'store'
  | 'log'
  | 'faults'
  | 'clock'
  | 'reset'
  | 'configure'
  | 'issueToken'
  | 'createObject'
>;

export async function handleControl(
  host: ControlHost,
  req: IncomingMessage,
  res: ServerResponse,
  method: string,
  path: string,
  query: string
): Promise<void> {
  const got = await readBody(req, 64 * 1024 * 1024, 64 * 1024 * 1024);
  let reply: Reply;
  try {
    const body = (): unknown => {
      if (!got.ok) throw new EmulatorApiError(413, { detail: 'Control request body too large.' });
      if (got.body.length === 0) return undefined;
      return parseJsonBody(got.body);
    };
    reply = controlRoute(host, method, path.replace(/\/+$/, ''), new URLSearchParams(query), body);
  } catch (err) {
    if (err instanceof EmulatorApiError) reply = err.toReply();
    // The validators of config, faults and clients throw these for a body they refuse.
    else if (err instanceof TypeError || err instanceof RangeError)
      reply = json(400, { detail: err.message });
    else throw err;
  }
  if (!res.destroyed) writeReply(res, reply, method === 'HEAD');
}

function controlRoute(
  host: ControlHost,
  method: string,
  path: string,
  q: URLSearchParams,
  body: () => unknown
): Reply {
  const routes: Record<string, Record<string, () => Reply>> = {
    '/__emulator': {
      GET: () =>
        json(200, {
          baseUrl: host.baseUrl,
          clients: host.auth.listClients().map((c) => ({ clientId: c.clientId, scope: c.scope })),
          config: host.cfg,
          routes: [
            'GET /__emulator/state',
            'GET /__emulator/requests',
            'DELETE /__emulator/requests',
            'GET /__emulator/stats',
            'POST /__emulator/reset',
            'GET|PUT /__emulator/config',
            'GET|PUT|DELETE /__emulator/faults',
            'POST /__emulator/faults/script',
            'POST /__emulator/tokens',
            'POST /__emulator/tokens/revoke',
            'POST /__emulator/clock',
            'POST /__emulator/clients',
            'POST /__emulator/create/:kind',
            'POST /__emulator/seed/:kind',
          ],
        }),
    },
    '/__emulator/state': { GET: () => json(200, host.store.snapshot(host.auth.activeCount())) },
    '/__emulator/requests': {
      GET: () => {
        const f: RequestFilter = {};
        const method2 = q.get('method');
        const prefix = q.get('pathPrefix');
        const since = q.get('since');
        const limit = q.get('limit');
        if (method2) f.method = method2;
        if (prefix) f.pathPrefix = prefix;
        if (since !== null) f.since = intParam('since', since);
        if (limit !== null) f.limit = intParam('limit', limit);
        return json(200, host.log.list(f));
      },
      DELETE: () => {
        host.log.clear();
        return { status: 204 };
      },
    },
    '/__emulator/stats': { GET: () => json(200, host.log.stats()) },
    '/__emulator/reset': {
      POST: () => {
        const b = body();
        const tokens = b && typeof b === 'object' && (b as { tokens?: unknown }).tokens === true;
        host.reset({ tokens: tokens === true });
        return { status: 204 };
      },
    },
    '/__emulator/config': {
      GET: () => json(200, host.cfg),
      PUT: () => json(200, host.configure(body())),
    },
    '/__emulator/faults': {
      GET: () => json(200, host.faults.get()),
      PUT: () => {
        host.faults.set((body() ?? null) as FaultsConfig | null);
        return json(200, host.faults.get());
      },
      DELETE: () => {
        host.faults.set(null);
        return { status: 204 };
      },
    },
    '/__emulator/faults/script': {
      POST: () => {
        const b = body();
        host.faults.append(Array.isArray(b) ? b : (b as { script?: unknown } | undefined)?.script);
        return json(200, host.faults.get());
      },
    },
    '/__emulator/tokens': {
      POST: () => {
        const b = body() as { clientId?: unknown } | undefined;
        const id = b?.clientId;
        if (
          id !== undefined &&
          (typeof id !== 'string' || !host.auth.listClients().some((c) => c.clientId === id))
        ) {
          throw new EmulatorApiError(400, { detail: 'unknown clientId' });
        }
        return json(200, host.issueToken(id as string | undefined));
      },
    },
    '/__emulator/tokens/revoke': {
      POST: () => {
        const b = (body() ?? {}) as { token?: unknown; clientId?: unknown };
        if (
          typeof b !== 'object' ||
          (b.token !== undefined && typeof b.token !== 'string') ||
          (b.clientId !== undefined && typeof b.clientId !== 'string')
        ) {
          throw new EmulatorApiError(400, {
            detail: 'body must be {} (all tokens), {"token": "..."} or {"clientId": "..."}',
          });
        }
        return json(200, {
          revoked: host.auth.revoke(b as { token?: string; clientId?: string }),
        });
      },
    },
    '/__emulator/clock': {
      POST: () => {
        const b = body() as { advanceMs?: unknown } | undefined;
        if (!b || typeof b.advanceMs !== 'number')
          throw new EmulatorApiError(400, { detail: 'body must be {"advanceMs": number}' });
        return json(200, { offsetMs: host.clock.advance(b.advanceMs) });
      },
    },
    '/__emulator/clients': {
      POST: () => {
        const b = body() as EmulatorClient;
        host.auth.addClient(b);
        return json(201, { clientId: b.clientId, scope: b.scope ?? 'write read' });
      },
    },
  };
  const seedMatch = /^\/__emulator\/seed\/(pinpoints|events|categories|lists)$/.exec(path);
  if (seedMatch) {
    if (method !== 'POST') throw methodNotAllowed(method, ['POST']);
    const bodies = body();
    if (!Array.isArray(bodies))
      throw new EmulatorApiError(400, { detail: 'expected a JSON array of create bodies' });
    return json(201, {
      ids: bodies.map((b) => Number(host.createObject(seedMatch[1] as ResourceKind, b).id)),
    });
  }
  const createMatch = /^\/__emulator\/create\/(pinpoints|events|categories|lists)$/.exec(path);
  if (createMatch) {
    if (method !== 'POST') throw methodNotAllowed(method, ['POST']);
    return json(201, host.createObject(createMatch[1] as ResourceKind, body()));
  }
  const r = routes[path];
  if (!r)
    throw new EmulatorApiError(404, {
      detail: `Unknown control route ${path}. GET /__emulator lists them.`,
    });
  const h = r[method === 'HEAD' ? 'GET' : method];
  if (!h) throw methodNotAllowed(method, Object.keys(r));
  return h();
}

function intParam(name: string, v: string): number {
  if (!/^\d{1,15}$/.test(v))
    throw new EmulatorApiError(400, { detail: `${name} must be a non-negative integer` });
  return Number(v);
}
