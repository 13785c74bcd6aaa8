/** CPU figures of the calling process, for the benches (and, through app.run, of a Strapi child). */
const { readFileSync } = require('node:fs');

/**
 * The main thread's CPU ms (Linux: /proc/self/task/<pid>/stat, in clock ticks of 10 ms), or null
 * elsewhere. What a process spends beyond it is its other threads' (V8's helpers: GC, compilers).
 */
function mainThreadCpuMs() {
  try {
    const stat = readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(f[11]) + Number(f[12])) * 10;
  } catch {
    return null;
  }
}

/** process.cpuUsage() and the main thread's share. */
const cpuNow = () => ({ ...process.cpuUsage(), main: mainThreadCpuMs() });

module.exports = { mainThreadCpuMs, cpuNow };
