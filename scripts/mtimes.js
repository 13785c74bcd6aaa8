/**
 * Whether something built is older than what it is built from: the demo's plugin build, the
 * benchmarks' plugin build and emulator bundle.
 */
const { readdirSync, statSync } = require('node:fs');
const path = require('node:path');

/** The last change to a file, or to anything below a folder. */
const newestMtime = (p) => {
  const st = statSync(p);
  if (!st.isDirectory()) return st.mtimeMs;
  return Math.max(0, ...readdirSync(p).map((name) => newestMtime(path.join(p, name))));
};

/** When the oldest of `files` was written, 0 when one is missing: it needs building. */
const builtAt = (files) => {
  try {
    return Math.min(...files.map((f) => statSync(f).mtimeMs));
  } catch {
    return 0;
  }
};

module.exports = { newestMtime, builtAt };
