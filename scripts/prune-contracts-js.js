// The CLI's tsc emits JavaScript for every file it imports, shared/contracts included, although the
// CLI takes only their types: the package ships the contracts as declarations alone.
const fs = require('node:fs');
const path = require('node:path');

const dir = path.resolve(__dirname, '..', 'dist', 'shared');
const prune = (d) => {
  if (!fs.existsSync(d)) return;
  for (const entry of fs.readdirSync(d, { withFileTypes: true })) {
    const p = path.join(d, entry.name);
    if (entry.isDirectory()) prune(p);
    else if (entry.name.endsWith('.js')) fs.rmSync(p);
  }
};
prune(dir);
