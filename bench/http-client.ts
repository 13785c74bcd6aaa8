/**
 * npm run bench:http [-- --calls 3000 --latency 50 --concurrency 8]
 *
 * What one HTTP call costs the plugin's process in CPU, without Strapi: the plugin's HTTP client
 * (undici's `request`, `remote/transport.ts`) and, for comparison, Node's own fetch POST a
 * pinpoint CALLS times, CONCURRENCY at once, to the emulator in its own process with LATENCY ms
 * added to every answer (then again with no latency added), and so does a raw socket as a
 * yardstick for the wire alone. Prints CPU ms per call for the process, its main thread (Linux
 * /proc, in 10 ms ticks) and user/system: what the plugin's fetch adds under bench:latency's
 * "Strapi CPU ms/push", which also reads, maps and records each entry.
 * Processes: this one and the emulator, 127.0.0.1 only. No goal: a figure for RESULTS.md.
 */
import net from 'node:net';
import { httpFetch, type FetchLike } from '../server/src/remote/transport';
import { arg, table } from './lib/common';
import { mainThreadCpuMs } from './lib/cpu';
import { startEmulatorProcess } from './lib/emulator';

const CALLS = arg('calls', 3_000);
const LATENCY = arg('latency', 50);
const CONCURRENCY = arg('concurrency', 8);

/** The emulator in its own process (its CPU is not ours), answering every request after `latencyMs`. */
async function startRemote(latencyMs: number) {
  const emu = await startEmulatorProcess({
    strict: true,
    ...(latencyMs > 0 ? { faults: { rules: [{ kind: 'latency', latencyMs }] } } : {}),
  });
  const token: string = (await emu.call('issueToken')).access_token;
  return { url: `${emu.baseUrl}/v3.0/pinpoints`, token, stop: () => emu.stop() };
}

/**
 * The yardstick's "fetch": CONCURRENCY keep-alive sockets, plain HTTP/1.1, answers with a
 * content-length only (the emulator's). Not a client: no TLS, chunks, redirects or timeouts.
 */
function rawSocketFetch(concurrency: number): { fetch: FetchLike; close(): void } {
  const idle: net.Socket[] = [];
  const all: net.Socket[] = [];
  const waiting: ((s: net.Socket) => void)[] = [];
  const take = (url: URL) =>
    new Promise<net.Socket>((resolve) => {
      const s = idle.pop();
      if (s) return resolve(s);
      if (all.length < concurrency) {
        const fresh = net.connect(Number(url.port), url.hostname);
        fresh.setNoDelay(true);
        fresh.setEncoding('latin1');
        all.push(fresh);
        return resolve(fresh);
      }
      waiting.push(resolve);
    });
  const give = (s: net.Socket) => {
    const next = waiting.shift();
    if (next) next(s);
    else idle.push(s);
  };
  const fetch: FetchLike = async (href, init) => {
    const url = new URL(href);
    const socket = await take(url);
    const body = init.body ?? '';
    let head = `${init.method} ${url.pathname}${url.search} HTTP/1.1\r\nhost: ${url.host}\r\n`;
    for (const [k, v] of Object.entries(init.headers)) head += `${k}: ${v}\r\n`;
    return new Promise((resolve, reject) => {
      let buf = '';
      const onData = (chunk: string) => {
        buf += chunk;
        const end = buf.indexOf('\r\n\r\n');
        if (end === -1) return;
        const length = Number(/\r\ncontent-length: *(\d+)/i.exec(buf.slice(0, end))?.[1] ?? 0);
        if (buf.length < end + 4 + length) return;
        socket.off('data', onData).off('error', reject);
        give(socket);
        const text = buf.slice(end + 4, end + 4 + length);
        resolve({
          status: Number(buf.slice(9, 12)),
          headers: { get: () => null },
          text: async () => text,
        });
      };
      socket.on('data', onData).on('error', reject);
      socket.write(`${head}content-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
    });
  };
  return { fetch, close: () => all.forEach((s) => s.destroy()) };
}

/** Node's global fetch (undici's fetch, with its streams, Headers and Body) in the same shape. */
const nodeFetch: FetchLike = async (url, init) => {
  const res = await fetch(url, { ...init, redirect: 'manual' });
  const text = await res.text();
  return {
    status: res.status,
    statusText: res.statusText,
    headers: res.headers,
    text: async () => text,
  };
};

async function measure(fetch: FetchLike, url: string, token: string) {
  const body = JSON.stringify({
    name: 'A place',
    description: `<p>${'y'.repeat(800)}</p>`,
    latitude: 45.76,
    longitude: 4.83,
    tags: ['a', 'b'],
  });
  const one = () =>
    fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body,
    }).then(async (r) => {
      const text = await r.text();
      // A call the emulator refused costs less than a create: it would flatter the figure.
      if (r.status !== 201) throw new Error(`POST answered ${r.status}: ${text.slice(0, 200)}`);
    });
  for (let i = 0; i < 50; i++) await one(); // warm up: sockets, JIT
  const main0 = mainThreadCpuMs();
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next++ < CALLS) await one();
    })
  );
  const ms = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  return {
    perSecond: (CALLS * 1000) / ms,
    cpu: (cpu.user + cpu.system) / 1000 / CALLS,
    user: cpu.user / 1000 / CALLS,
    system: cpu.system / 1000 / CALLS,
    main: main0 === null ? NaN : (mainThreadCpuMs()! - main0) / CALLS,
  };
}

async function main() {
  const rows: string[][] = [
    ['fetch', 'latency ms', 'calls/s', 'CPU ms/call', 'main thread', 'user', 'system'],
  ];
  const headline: string[] = [];
  const f = (x: number) => (Number.isFinite(x) ? x.toFixed(3) : '-');
  for (const latency of [LATENCY, 0]) {
    const first = !headline.length;
    const remote = await startRemote(latency);
    try {
      const raw = rawSocketFetch(CONCURRENCY);
      for (const [name, said, fetch] of [
        ['undici request (the plugin)', 'for the plugin', httpFetch],
        ["Node's fetch", "for Node's fetch", nodeFetch],
        ['raw socket (yardstick)', 'for a raw socket', raw.fetch],
      ] as const) {
        const r = await measure(fetch, remote.url, remote.token);
        if (first) headline.push(`${f(r.cpu)} ms ${said}`);
        rows.push([
          name,
          String(latency),
          r.perSecond.toFixed(1),
          f(r.cpu),
          f(r.main),
          f(r.user),
          f(r.system),
        ]);
      }
      raw.close();
    } finally {
      await remote.stop();
    }
  }
  table(rows);
  process.stdout.write(
    `http: CPU per call at ${LATENCY} ms, ${CONCURRENCY} in flight: ${headline.join(', ')}\n`
  );
}

main().then(
  () => process.exit(0),
  (err) => {
    process.stderr.write(`bench failed: ${err?.stack ?? err}\n`);
    process.exit(1);
  }
);
