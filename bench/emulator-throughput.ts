/**
 * npm run bench:emulator [-- --requests 20000 --concurrency 32]
 *
 * Proves the emulator is never the bottleneck: a bounded loop of POST then GET /v3.0/pinpoints/:id
 * requests over keep-alive connections from a concurrent client, against an emulator in strict
 * mode in the SAME process (so client and server share one core: a pessimistic figure).
 * Only 127.0.0.1 traffic; stops after the request count or 120 s, whichever comes first.
 * Prints a table; the last line is the headline figure (requests per second).
 */
import { Agent, request } from 'node:http';
import { performance } from 'node:perf_hooks';
import { startEmulator } from '../emulator/src';

const TARGET_RPS = 2000;
const TIME_LIMIT_MS = 120_000;

function flag(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  const v = i === -1 ? process.env[`BENCH_${name.toUpperCase()}`] : process.argv[i + 1];
  const n = v === undefined ? fallback : Number(v);
  if (!Number.isInteger(n) || n < 1 || n > 1_000_000)
    throw new Error(`--${name} must be an integer 1-1000000`);
  return n;
}

const total = flag('requests', 20_000);
const concurrency = flag('concurrency', 32);

interface Phase {
  name: string;
  requests: number;
  ms: number;
  errors: number;
  latencies: number[];
}

async function main(): Promise<void> {
  const emu = await startEmulator({ strict: true, requestLogSize: 10_000 });
  const agent = new Agent({ keepAlive: true, maxSockets: concurrency });
  const { hostname, port } = new URL(emu.baseUrl);
  const deadline = performance.now() + TIME_LIMIT_MS;
  const token = emu.issueToken().access_token;

  const send = (
    method: string,
    path: string,
    body?: string
  ): Promise<{ status: number; data: string }> =>
    new Promise((resolve, reject) => {
      const headers: Record<string, string | number> = { authorization: `Bearer ${token}` };
      if (body !== undefined) {
        headers['content-type'] = 'application/json';
        headers['content-length'] = Buffer.byteLength(body);
      }
      const req = request({ host: hostname, port, method, path, headers, agent }, (res) => {
        let data = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (data += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, data }));
        res.on('error', reject);
      });
      req.on('error', reject);
      req.end(body);
    });

  /** Run `n` requests made by `make(i)` with `concurrency` in flight. */
  async function phase(
    name: string,
    n: number,
    make: (i: number) => Promise<boolean>
  ): Promise<Phase> {
    const latencies: number[] = [];
    let next = 0;
    let errors = 0;
    const t0 = performance.now();
    const worker = async (): Promise<void> => {
      while (next < n && performance.now() < deadline) {
        const i = next++;
        const s = performance.now();
        try {
          if (!(await make(i))) errors++;
        } catch {
          errors++;
        }
        latencies.push(performance.now() - s);
      }
    };
    await Promise.all(Array.from({ length: Math.min(concurrency, n) }, worker));
    return { name, requests: latencies.length, ms: performance.now() - t0, errors, latencies };
  }

  const ids: number[] = [];
  const body = (i: number): string =>
    JSON.stringify({
      name: `Pinpoint ${i}`,
      description: '<p>A small pinpoint for the benchmark.</p>',
      latitude: 48.8566 + (i % 100) / 1000,
      longitude: 2.3522 - (i % 100) / 1000,
      tags: ['bench', `t${i % 10}`],
    });

  // warm-up (not counted)
  await phase(
    'warm-up',
    Math.min(500, total),
    async (i) => (await send('POST', '/v3.0/pinpoints', body(i))).status === 201
  );
  emu.reset();

  const half = Math.ceil(total / 2);
  const post = await phase('POST /v3.0/pinpoints', half, async (i) => {
    const r = await send('POST', '/v3.0/pinpoints', body(i));
    if (r.status !== 201) return false;
    ids.push((JSON.parse(r.data) as { id: number }).id);
    return true;
  });
  const get = await phase('GET /v3.0/pinpoints/:id', total - half, async (i) => {
    const r = await send('GET', `/v3.0/pinpoints/${ids[i % ids.length]}`);
    return r.status === 200;
  });

  agent.destroy();
  const stored = emu.state().pinpoints.length;
  await emu.stop();

  const pct = (xs: number[], p: number): number => {
    if (!xs.length) return NaN;
    const s = [...xs].sort((a, b) => a - b);
    return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
  };
  const all: Phase = {
    name: 'total',
    requests: post.requests + get.requests,
    ms: post.ms + get.ms,
    errors: post.errors + get.errors,
    latencies: [...post.latencies, ...get.latencies],
  };
  const rows = [post, get, all].map((p) => [
    p.name,
    String(p.requests),
    (p.ms / 1000).toFixed(2),
    Math.round(p.requests / (p.ms / 1000)).toString(),
    pct(p.latencies, 50).toFixed(2),
    pct(p.latencies, 99).toFixed(2),
    String(p.errors),
  ]);
  const head = ['phase', 'requests', 'seconds', 'req/s', 'p50 ms', 'p99 ms', 'errors'];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]): string =>
    cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  const rps = Math.round(all.requests / (all.ms / 1000));

  console.log(
    `emulator benchmark: ${total} requests, keep-alive, concurrency ${concurrency}, strict mode, client and server in one process on 127.0.0.1`
  );
  console.log(line(head));
  for (const r of rows) console.log(line(r));
  console.log(
    `stored pinpoints: ${stored}; target >= ${TARGET_RPS} req/s: ${rps >= TARGET_RPS ? 'met' : 'NOT met'}`
  );
  console.log(`emulator throughput: ${rps} req/s`);
  if (all.errors > 0 || all.requests < total) process.exitCode = 1;
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
