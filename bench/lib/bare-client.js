/**
 * The yardstick: a bare HTTP client that POSTs given bodies to the emulator with keep-alive and
 * a fixed number of requests in flight. No queue, no database, no mapping: the best possible.
 */
const { Agent, request } = require('node:http');

async function postAll({ baseUrl, token, path, bodies, concurrency }) {
  const { hostname, port } = new URL(baseUrl);
  const agent = new Agent({ keepAlive: true, maxSockets: concurrency });
  const statuses = {};
  const send = (body) =>
    new Promise((resolve, reject) => {
      const data = JSON.stringify(body);
      const req = request(
        {
          host: hostname,
          port,
          method: 'POST',
          path,
          agent,
          headers: {
            authorization: `Bearer ${token}`,
            'content-type': 'application/json',
            'content-length': Buffer.byteLength(data),
          },
        },
        (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode));
          res.on('error', reject);
        }
      );
      req.on('error', reject);
      req.end(data);
    });
  let next = 0;
  const t0 = performance.now();
  const cpu0 = process.cpuUsage();
  const lane = async () => {
    while (next < bodies.length) {
      const body = bodies[next++];
      const status = await send(body);
      statuses[status] = (statuses[status] ?? 0) + 1;
    }
  };
  await Promise.all(Array.from({ length: concurrency }, lane));
  const ms = performance.now() - t0;
  // This process does nothing else meanwhile (the emulator is a child): its CPU is the client's.
  const cpu = process.cpuUsage(cpu0);
  agent.destroy();
  return {
    ms,
    statuses,
    perSecond: (bodies.length * 1000) / ms,
    cpuMsPerCall: (cpu.user + cpu.system) / 1000 / bodies.length,
  };
}

/**
 * The same POST bodies again, on the emulator emptied (its start faults kept, latency included),
 * with a token of its own and nothing else in between: what the remote and the loopback allow.
 */
async function replayOnEmulator(emu, { bodies, concurrency, path = '/v3.0/pinpoints' }) {
  await emu.call('reset');
  const token = (await emu.call('issueToken')).access_token;
  const bare = await postAll({ baseUrl: emu.baseUrl, token, path, bodies, concurrency });
  if (bare.statuses[201] !== bodies.length)
    throw new Error(`bare client: ${JSON.stringify(bare.statuses)}`);
  return bare;
}

module.exports = { postAll, replayOnEmulator };
