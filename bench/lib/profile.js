/**
 * A CPU profile of a Strapi child over one stretch of a bench (BENCH_PROF=<dir>), taken through
 * node:inspector inside the child so that boot and seeding stay out of it. With BENCH_ALLOC=young
 * (every allocation) or BENCH_ALLOC=old (what survived a scavenge: what is promoted), a sampling
 * heap profile instead. Open the .cpuprofile or .heapprofile in Chrome DevTools, or summarise it
 * with `node bench/lib/profile.js <file> [top N] [pushes, for KB per push]`.
 */
const { readFileSync, mkdirSync, writeFileSync } = require('node:fs');
const path = require('node:path');

const enabled = () => Boolean(process.env.BENCH_PROF);
/** BENCH_ALLOC=young|old: a sampling heap profile instead, of every allocation or of what survived a scavenge */
const allocKind = () => process.env.BENCH_ALLOC;

async function startProfile(app) {
  if (!enabled()) return;
  await app.run(async (_strapi, kind, { require }) => {
    const { Session } = require('node:inspector');
    const session = new Session();
    session.connect();
    const post = (m, p) =>
      new Promise((res, rej) => session.post(m, p ?? {}, (e, r) => (e ? rej(e) : res(r))));
    if (kind) {
      await post('HeapProfiler.enable');
      await post('HeapProfiler.startSampling', {
        samplingInterval: 1024,
        includeObjectsCollectedByMajorGC: true,
        includeObjectsCollectedByMinorGC: kind !== 'old',
      });
    } else {
      await post('Profiler.enable');
      await post('Profiler.setSamplingInterval', { interval: 200 });
      await post('Profiler.start');
    }
    global.__benchProfile = { session, post };
    return true;
  }, allocKind() ?? null);
}

/** Stops the profile started by startProfile and writes it to $BENCH_PROF/<name>.cpuprofile (or .heapprofile). */
async function stopProfile(app, name) {
  if (!enabled()) return null;
  const profile = await app.run(async (_strapi, kind) => {
    const { session, post } = global.__benchProfile;
    const { profile: p } = await post(kind ? 'HeapProfiler.stopSampling' : 'Profiler.stop');
    session.disconnect();
    return JSON.stringify(p);
  }, allocKind() ?? null);
  mkdirSync(process.env.BENCH_PROF, { recursive: true });
  const file = path.join(
    process.env.BENCH_PROF,
    `${name}.${allocKind() ? 'heapprofile' : 'cpuprofile'}`
  );
  writeFileSync(file, profile);
  process.stderr.write(`> profile: ${file}\n`);
  return file;
}

/** Where a call frame is: its file below node_modules, or its function for V8's own. */
const whereOf = (f) => {
  if (!f.url) return `(${f.functionName || 'native'})`;
  const file = f.url.replace(/^file:\/\//, '');
  return file.includes('node_modules/')
    ? file.replace(/^.*node_modules\//, '')
    : path.isAbsolute(file)
      ? path.relative(process.cwd(), file)
      : file;
};

/** [call frame, self amount] of a .cpuprofile (µs) or of a .heapprofile (bytes). */
function selfAmounts(p) {
  if (p.head) {
    const size = new Map();
    for (const s of p.samples) size.set(s.nodeId, (size.get(s.nodeId) ?? 0) + s.size);
    const out = [];
    const walk = (node) => {
      out.push([node.callFrame, size.get(node.id) ?? 0]);
      node.children.forEach(walk);
    };
    walk(p.head);
    return out;
  }
  const byId = new Map(p.nodes.map((node) => [node.id, node]));
  const self = new Map();
  p.samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (p.timeDeltas[i] ?? 0)));
  return [...self].map(([id, us]) => [byId.get(id).callFrame, us]);
}

/**
 * Self time (a .cpuprofile) or bytes allocated (a .heapprofile, per push with `pushes`) by
 * function and by file (the top `n`).
 */
function summarise(file, n = 40, pushes = 0) {
  const p = JSON.parse(readFileSync(file, 'utf8'));
  const heap = Boolean(p.head);
  const fns = new Map();
  const files = new Map();
  let total = 0;
  for (const [f, amount] of selfAmounts(p)) {
    const where = whereOf(f);
    const key = `${f.functionName || '(anonymous)'} ${where}:${f.lineNumber + 1}`;
    fns.set(key, (fns.get(key) ?? 0) + amount);
    const pkg = where
      .split('/')
      .slice(0, where.startsWith('@') ? 2 : 1)
      .join('/');
    files.set(pkg, (files.get(pkg) ?? 0) + amount);
    total += amount;
  }
  const unit = heap
    ? (x) => `${(x / 1024 / (pushes || 1)).toFixed(2).padStart(8)} KB${pushes ? '/push' : ''}`
    : (x) => `${(x / 1000).toFixed(0).padStart(7)} ms`;
  const top = (m) =>
    [...m]
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(([k, x]) => `${unit(x)} ${((100 * x) / total).toFixed(1).padStart(5)}%  ${k}`);
  return `total ${unit(total)}\n-- by package/file --\n${top(files).join('\n')}\n-- by function --\n${top(fns).join('\n')}\n`;
}

if (require.main === module)
  process.stdout.write(
    summarise(process.argv[2], Number(process.argv[3] ?? 40), Number(process.argv[4] ?? 0))
  );

module.exports = { startProfile, stopProfile, summarise };
