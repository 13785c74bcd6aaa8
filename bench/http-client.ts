/**
 * npm run bench:http [-- --calls 3000 --latency 50 --concurrency 8]
 *
 * What one HTTP call costs the plugin's process in CPU, without Strapi: the plugin's two fetches
 * (undici inline, `remote/http-fetch.ts`, and the I/O thread, `remote/io-thread.ts`) POST a
 * pinpoint CALLS times, CONCURRENCY at once, to the emulator in its own process with LATENCY ms
 * added to every answer (then again with no latency added). Prints CPU ms per call for the process,
 * its main thread (Linux /proc, in 10 ms ticks) and user/system: the floor under bench:latency's
 * "Strapi CPU ms/push", which also reads, maps and records each entry.
 * Processes: this one and the emulator, 127.0.0.1 only. No goal: a figure for RESULTS.md.
 */
import { httpFetch } from '../server/src/remote/http-fetch';
import { createIoThread } from '../server/src/remote/io-thread';
import type { FetchLike } from '../server/src/remote/transport';
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
    }).then((r) => r.text());
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
  for (const latency of [LATENCY, 0]) {
    const remote = await startRemote(latency);
    try {
      const io = createIoThread({ concurrency: CONCURRENCY });
      for (const [name, fetch] of [
        ['undici inline', httpFetch],
        ['I/O thread', io.fetch],
      ] as const) {
        const r = await measure(fetch, remote.url, remote.token);
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
      await remote.stop();
    }
  }
  table(rows);
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
