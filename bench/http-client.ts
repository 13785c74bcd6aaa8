/**
 * npm run bench:http [-- --calls 3000 --latency 50 --concurrency 8]
 *
 * What one HTTP call costs the plugin's process in CPU, without Strapi: the plugin's two fetches
 * (undici inline, `remote/http-fetch.ts`, and the I/O thread, `remote/io-thread.ts`) POST a
 * pinpoint-sized JSON body CALLS times, CONCURRENCY at once, to a server in a child process that
 * answers after LATENCY ms (then again with no latency). Prints CPU ms per call for the process,
 * its main thread (Linux /proc, in 10 ms ticks) and user/system: the floor under bench:latency's
 * "Strapi CPU ms/push", which also reads, maps and records each entry.
 * Processes: this one and the server, 127.0.0.1 only. No goal: a figure for RESULTS.md.
 */
import { fork } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { httpFetch } from '../server/src/remote/http-fetch';
import { createIoThread } from '../server/src/remote/io-thread';
import type { FetchLike } from '../server/src/remote/transport';

function flag(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  const v = i === -1 ? process.env[`BENCH_${name.toUpperCase()}`] : process.argv[i + 1];
  return v === undefined ? fallback : Number(v);
}

const CALLS = flag('calls', 3_000);
const LATENCY = flag('latency', 50);
const CONCURRENCY = flag('concurrency', 8);

/** This process's main thread's CPU ms, or NaN off Linux. */
function mainThreadMs(): number {
  try {
    const stat = readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(f[11]) + Number(f[12])) * 10;
  } catch {
    return NaN;
  }
}

/** A server in a child process (its CPU is not ours) that answers every POST after `latencyMs`. */
async function startServer(latencyMs: number) {
  const source = `
    const http = require('node:http');
    const server = http.createServer((req, res) => {
      req.resume();
      req.on('end', () => setTimeout(() => {
        res.writeHead(201, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ id: 1, name: 'x'.repeat(200) }));
      }, ${latencyMs}));
    });
    server.keepAliveTimeout = 60000;
    server.listen(0, '127.0.0.1', () => process.send(server.address().port));`;
  const child = fork(path.join(__dirname, 'lib', 'eval-child.js'), [source], { stdio: 'ignore' });
  const port = await new Promise<number>((resolve, reject) => {
    child.once('message', (m) => resolve(m as number));
    child.once('exit', (code) => reject(new Error(`the server exited (${code})`)));
  });
  return { url: `http://127.0.0.1:${port}/v3.0/pinpoints`, stop: () => child.kill() };
}

async function measure(fetch: FetchLike, url: string) {
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
      headers: { 'content-type': 'application/json', authorization: 'Bearer a-token' },
      body,
    }).then((r) => r.text());
  for (let i = 0; i < 50; i++) await one(); // warm up: sockets, JIT
  const main0 = mainThreadMs();
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
    main: (mainThreadMs() - main0) / CALLS,
  };
}

async function main() {
  const rows: string[][] = [
    ['fetch', 'latency ms', 'calls/s', 'CPU ms/call', 'main thread', 'user', 'system'],
  ];
  for (const latency of [LATENCY, 0]) {
    const server = await startServer(latency);
    try {
      const io = createIoThread({ concurrency: CONCURRENCY });
      for (const [name, fetch] of [
        ['undici inline', httpFetch],
        ['I/O thread', io.fetch],
      ] as const) {
        const r = await measure(fetch, server.url);
        const f = (x: number) => (Number.isFinite(x) ? x.toFixed(3) : '-');
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
      await io.close();
    } finally {
      server.stop();
    }
  }
  const widths = rows[0].map((_, c) => Math.max(...rows.map((r) => r[c].length)));
  for (const [i, r] of rows.entries()) {
    process.stdout.write(`${r.map((v, c) => v.padEnd(widths[c])).join('  ')}\n`);
    if (i === 0) process.stdout.write(`${widths.map((w) => '-'.repeat(w)).join('  ')}\n`);
  }
  process.stdout.write(
    `http: CPU per call at ${LATENCY} ms, ${CONCURRENCY} in flight: ${rows[1][3]} ms inline, ${rows[2][3]} ms with the I/O thread\n`
  );
}

main().then(
  () => process.exit(0),
  (err) => {
    process.stderr.write(`bench failed: ${err?.stack ?? err}\n`);
    process.exit(1);
  }
);
