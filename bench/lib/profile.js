/**
 * A CPU profile of a Strapi child over one stretch of a bench (BENCH_PROF=<dir>), taken through
 * node:inspector inside the child so that boot and seeding stay out of it. Open the
 * .cpuprofile in Chrome DevTools, or summarise it with `node bench/lib/profile.js <file>`.
 */
const { readFileSync, mkdirSync, writeFileSync } = require('node:fs');
const path = require('node:path');

const enabled = () => Boolean(process.env.BENCH_PROF);

async function startProfile(app) {
  if (!enabled()) return;
  await app.run(async (_strapi, _args, { require }) => {
    const { Session } = require('node:inspector');
    const session = new Session();
    session.connect();
    const post = (m, p) =>
      new Promise((res, rej) => session.post(m, p ?? {}, (e, r) => (e ? rej(e) : res(r))));
    await post('Profiler.enable');
    await post('Profiler.setSamplingInterval', { interval: 200 });
    await post('Profiler.start');
    global.__benchProfile = { session, post };
    return true;
  });
}

/** Stops the profile started by startProfile and writes it to $BENCH_PROF/<name>.cpuprofile. */
async function stopProfile(app, name) {
  if (!enabled()) return null;
  const profile = await app.run(async () => {
    const { session, post } = global.__benchProfile;
    const { profile: p } = await post('Profiler.stop');
    session.disconnect();
    return JSON.stringify(p);
  });
  mkdirSync(process.env.BENCH_PROF, { recursive: true });
  const file = path.join(process.env.BENCH_PROF, `${name}.cpuprofile`);
  writeFileSync(file, profile);
  process.stderr.write(`> profile: ${file}\n`);
  return file;
}

/** Self time by function and by file (the top `n`), from a .cpuprofile. */
function summarise(file, n = 40) {
  const p = JSON.parse(readFileSync(file, 'utf8'));
  const byId = new Map(p.nodes.map((node) => [node.id, node]));
  const self = new Map();
  p.samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (p.timeDeltas[i] ?? 0)));
  const fns = new Map();
  const files = new Map();
  let total = 0;
  for (const [id, us] of self) {
    const f = byId.get(id).callFrame;
    const where = f.url
      ? `${f.url.replace(/^.*node_modules\//, '').replace(/^file:\/\//, '')}`
      : `(${f.functionName || 'native'})`;
    const key = `${f.functionName || '(anonymous)'} ${where}:${f.lineNumber + 1}`;
    fns.set(key, (fns.get(key) ?? 0) + us);
    const pkg = where
      .split('/')
      .slice(0, where.startsWith('@') ? 2 : 1)
      .join('/');
    files.set(pkg, (files.get(pkg) ?? 0) + us);
    total += us;
  }
  const top = (m) =>
    [...m]
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(
        ([k, us]) =>
          `${(us / 1000).toFixed(0).padStart(7)} ms ${((100 * us) / total).toFixed(1).padStart(5)}%  ${k}`
      );
  return `total ${(total / 1000).toFixed(0)} ms\n-- by package/file --\n${top(files).join('\n')}\n-- by function --\n${top(fns).join('\n')}\n`;
}

if (require.main === module)
  process.stdout.write(summarise(process.argv[2], Number(process.argv[3] ?? 40)));

module.exports = { startProfile, stopProfile, summarise };
