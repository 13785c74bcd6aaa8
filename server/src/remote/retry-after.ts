/**
 * Retry-After as seconds or an HTTP date; 1 s when absent or unreadable. Self-contained: the
 * I/O thread runs it from its source text.
 */
export function retryAfterMs(header: string | null | undefined, now = Date.now()): number {
  if (header) {
    const seconds = Number(header);
    if (Number.isFinite(seconds) && seconds >= 0) return Math.max(seconds * 1000, 100);
    const at = Date.parse(header);
    if (!Number.isNaN(at)) return Math.max(at - now, 100);
  }
  return 1000;
}
