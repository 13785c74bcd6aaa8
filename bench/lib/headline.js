/**
 * The last line of every bench, which bench:all gathers: `<bench>: <figure> (goal …) ✓/✗`.
 * `ok` null: a figure kept for reference, with no goal of its own.
 */
const headline = (name, figure, goal, ok) =>
  process.stdout.write(
    `${name}: ${figure}${goal ? ` (goal ${goal})` : ''} ${ok === null ? '(no goal)' : ok ? '✓' : '✗'}\n`
  );

module.exports = { headline };
