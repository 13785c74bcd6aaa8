/**
 * Garbage collections of a Strapi child over one stretch of a bench: how many mark-compacts (V8's
 * full collections, which a small heap limit multiplies) and how long the main thread paused for
 * them and for scavenges. Counts, unlike wall time, do not move with a noisy neighbour.
 */
async function startGcWatch(app) {
  await app.run(async (_strapi, _args, { require }) => {
    const { PerformanceObserver, constants } = require('node:perf_hooks');
    const seen = { markCompacts: 0, scavenges: 0, pauseMs: 0 };
    const observer = new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) {
        const kind = entry.detail?.kind;
        if (kind === constants.NODE_PERFORMANCE_GC_MAJOR) seen.markCompacts += 1;
        if (kind === constants.NODE_PERFORMANCE_GC_MINOR) seen.scavenges += 1;
        seen.pauseMs += entry.duration;
      }
    });
    observer.observe({ entryTypes: ['gc'] });
    global.__benchGc = { observer, seen };
    return true;
  });
}

/** What startGcWatch saw: { markCompacts, scavenges, pauseMs }. */
async function stopGcWatch(app) {
  return app.run(async () => {
    const { observer, seen } = global.__benchGc;
    observer.disconnect();
    return seen;
  });
}

module.exports = { startGcWatch, stopGcWatch };
