/** Exponential backoff with full jitter in its upper half, never sooner than the remote asked. */
export function backoffMs(
  attempt: number,
  opts: { baseMs: number; maxMs: number },
  atLeastMs = 0,
  random = Math.random
): number {
  const ceiling = Math.min(opts.maxMs, opts.baseMs * 2 ** Math.min(attempt, 30));
  return Math.max(atLeastMs, Math.round(ceiling * (0.5 + random() / 2)));
}
