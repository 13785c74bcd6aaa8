/**
 * The run's bookkeeping: the timestamped log, steps (a failure ends the run), checks (a failure is
 * recorded and the run goes on) and the closing "N passed, M failed" summary.
 */
const started = Date.now();
const clock = () => {
  const s = Math.floor((Date.now() - started) / 1000);
  return `${String(Math.floor(s / 60)).padStart(2, '0')}:${String(s % 60).padStart(2, '0')}`;
};
export const log = (line: string) => process.stdout.write(`[${clock()}] ${line}\n`);
export const secs = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

const timings: Array<{ step: string; ms: number; ok: boolean }> = [];
const results: Array<{ name: string; ok: boolean; error?: string }> = [];

/** A step failed: the rest of the run depends on it. */
export class SetupError extends Error {}
/** The run ends before the install on purpose (LC_PACKAGE_STATIC_ONLY). */
export class StopEarly extends Error {}

export const errorText = (err: unknown) => (err instanceof Error ? err.message : String(err));

export function assert(condition: unknown, message: string): asserts condition {
  if (!condition) throw new Error(message);
}

/** A step everything after it depends on: a failure ends the run. */
export async function step<T>(name: string, fn: () => Promise<T>): Promise<T> {
  log(`> ${name}`);
  const t0 = Date.now();
  try {
    const value = await fn();
    timings.push({ step: name, ms: Date.now() - t0, ok: true });
    log(`  done in ${secs(Date.now() - t0)}`);
    return value;
  } catch (err) {
    timings.push({ step: name, ms: Date.now() - t0, ok: false });
    results.push({ name: `step: ${name}`, ok: false, error: errorText(err) });
    log(`  FAILED after ${secs(Date.now() - t0)}: ${errorText(err)}`);
    throw new SetupError(name);
  }
}

export type Check = (name: string, fn: () => Promise<void> | void) => Promise<boolean>;

/** An independent check: recorded, the run goes on. */
export const check: Check = async (name, fn) => {
  try {
    await fn();
    results.push({ name, ok: true });
    log(`  ok    ${name}`);
    return true;
  } catch (err) {
    results.push({ name, ok: false, error: errorText(err) });
    log(`  FAIL  ${name}\n        ${errorText(err).split('\n').join('\n        ')}`);
    return false;
  }
};

/** An error that is neither a failed step nor the planned early stop. */
export function recordUnexpected(err: unknown): void {
  if (!(err instanceof SetupError) && !(err instanceof StopEarly))
    results.push({ name: 'unexpected error', ok: false, error: errorText(err) });
}

/** Logs timings, failures and "N passed, M failed"; returns the number of failures. */
export function summarize(): number {
  const passed = results.filter((r) => r.ok).length;
  const failed = results.length - passed;
  log('');
  log('timings:');
  for (const t of timings) log(`  ${secs(t.ms).padStart(8)}  ${t.ok ? '' : '(failed) '}${t.step}`);
  log(`  ${secs(Date.now() - started).padStart(8)}  total`);
  if (failed) {
    log('failures:');
    for (const r of results.filter((x) => !x.ok)) log(`  - ${r.name}: ${r.error?.split('\n')[0]}`);
  }
  log(`${passed} passed, ${failed} failed`);
  return failed;
}
