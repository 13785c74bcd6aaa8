/** The machine's load next to every figure: other people's work on the same cores depresses wall-clock figures. */
const os = require('node:os');

/** `uptime`'s 1, 5 and 15 minute load averages, rounded. */
const loadNow = () => os.loadavg().map((l) => Math.round(l * 100) / 100);

/** "1.58 0.96 0.51" as uptime prints them. */
const loadText = (l = loadNow()) => l.join(' ');

module.exports = { loadNow, loadText };
