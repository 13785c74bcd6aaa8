/** The declarations TypeScript benches use; see common.js for the rest. */
/** A number from `--name N` on the command line, else from BENCH_NAME in the environment, else `fallback`. */
export function arg(name: string, fallback: number): number;
/** Prints rows as an aligned table (first row = header). */
export function table(rows: Array<Array<string | number>>): void;
