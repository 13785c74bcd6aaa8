/** The bundled emulator in its own process, driven over IPC by bench/lib/emulator.js. */
const { startEmulator } = require(process.env.EMULATOR_BUNDLE);

const WRITE = new Set(['POST', 'PUT', 'DELETE', 'PATCH']);
const isApi = (r) => !r.path.startsWith('/v3.0/oauth2/');

const waiters = new Set();

async function main() {
  // One call per request the emulator finished: wakes whoever waits for it.
  const emu = await startEmulator({
    ...JSON.parse(process.env.EMULATOR_OPTIONS || '{}'),
    logger: () => {
      for (const w of [...waiters]) w();
    },
  });
  /** First log entry after `since` with this method and path (no query), waiting up to timeoutMs. */
  const waitFor = ({ since = 0, method, path, timeoutMs = 30_000 }) =>
    new Promise((resolve, reject) => {
      const find = () => emu.requests({ since, method }).find((r) => r.path.split('?')[0] === path);
      const check = () => {
        const hit = find();
        if (!hit) return;
        waiters.delete(check);
        clearTimeout(timer);
        resolve({ ...hit, body: undefined, headers: undefined });
      };
      const timer = setTimeout(() => {
        waiters.delete(check);
        reject(new Error(`no ${method} ${path} after seq ${since} within ${timeoutMs} ms`));
      }, timeoutMs);
      waiters.add(check);
      check();
    });
  const commands = {
    stats: () => emu.stats(),
    waitFor,
    config: () => emu.config(),
    configure: (patch) => emu.configure(patch),
    /** Many objects at once: an account that already holds content. Returns how many. */
    seed: ({ kind, bodies }) => emu.seed(kind, bodies).length,
    setFaults: (cfg) => emu.setFaults(cfg),
    reset: (opts) => emu.reset(opts),
    clearRequests: () => emu.clearRequests(),
    revokeTokens: () => emu.revokeTokens(),
    issueToken: () => emu.issueToken(),
    lastSeq: () => {
      const all = emu.requests();
      return all.length ? all[all.length - 1].seq : 0;
    },
    /** Request log entries, bodies left out unless asked (they are big). */
    requests: ({ filter = {}, bodies = false } = {}) =>
      emu.requests(filter).map((r) => (bodies ? r : { ...r, body: undefined, headers: undefined })),
    /** Counts of what the emulator holds, and how many names appear more than once. */
    summary: () => {
      const s = emu.state();
      const byName = new Map();
      for (const p of s.pinpoints) byName.set(p.name, (byName.get(p.name) ?? 0) + 1);
      return {
        pinpoints: s.pinpoints.length,
        events: s.events.length,
        categories: s.categories.length,
        lists: s.lists.length,
        duplicateNames: [...byName.values()].filter((n) => n > 1).length,
      };
    },
    /** API calls (token requests excluded) after `since`: total, writes, by method, by status. */
    calls: ({ since = 0 } = {}) => {
      const rs = emu.requests({ since }).filter(isApi);
      const byMethod = {};
      const byStatus = {};
      for (const r of rs) {
        byMethod[r.method] = (byMethod[r.method] ?? 0) + 1;
        byStatus[r.status ?? 'reset'] = (byStatus[r.status ?? 'reset'] ?? 0) + 1;
      }
      const tokens = emu.requests({ since }).length - rs.length;
      return {
        total: rs.length,
        writes: rs.filter((r) => WRITE.has(r.method)).length,
        byMethod,
        byStatus,
        tokens,
      };
    },
    stop: async () => {
      await emu.stop();
      setImmediate(() => process.exit(0));
    },
  };
  process.on('message', async (msg) => {
    if (!msg || msg.id === undefined) return;
    try {
      const fn = commands[msg.cmd];
      if (!fn) throw new Error(`unknown command ${msg.cmd}`);
      process.send({ id: msg.id, ok: true, value: await fn(msg.args) });
    } catch (err) {
      process.send({ id: msg.id, ok: false, error: err?.message ?? String(err) });
    }
  });
  process.on('disconnect', () => process.exit(0));
  process.send({
    event: 'ready',
    info: {
      baseUrl: emu.baseUrl,
      clientId: emu.clientId,
      clientSecret: emu.clientSecret,
      port: emu.port,
    },
  });
}

main().catch((err) => {
  process.stderr.write(`emulator-child: ${err?.stack ?? err}\n`);
  process.exit(1);
});
