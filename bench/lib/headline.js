const { saveHeadline } = require('./common');

/**
 * The last line of every bench, which bench:all gathers: `<bench>: <figure> (goal …) ✓/✗`.
 * `ok` null: a figure kept for reference, with no goal of its own. The line also joins the result
 * the bench saved just before (bench/lib/common.js saveResult).
 */
const headline = (name, figure, goal, ok) => {
  const line = `${name}: ${figure}${goal ? ` (goal ${goal})` : ''} ${ok === null ? '(no goal)' : ok ? '✓' : '✗'}`;
  saveHeadline({ name, figure, goal: goal ?? null, ok, line });
  process.stdout.write(`${line}\n`);
};

module.exports = { headline };
