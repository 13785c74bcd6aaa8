/**
 * Where a run's lanes stood idle, from the emulator's request log alone (timestamps inside one
 * run do not drift with the machine's load). With CONCURRENCY requests in flight at most and
 * work always waiting, the i-th request (by start) takes the lane freed by the (i - CONCURRENCY)-th
 * answer (by end): their difference is the time that lane stood idle. Also the start (resync()
 * called -> first request) and the tail (last request sent -> last answer, when fewer than
 * CONCURRENCY remain).
 */
const { percentile } = require('./common');

/** @param {{ time: string, durationMs: number }[]} requests @param {number} concurrency @param {number} t0 resync() called, ms */
function laneGaps(requests, concurrency, t0) {
  const starts = requests.map((r) => Date.parse(r.time)).sort((a, b) => a - b);
  const ends = requests.map((r) => Date.parse(r.time) + r.durationMs).sort((a, b) => a - b);
  const gaps = [];
  for (let i = concurrency; i < starts.length; i++)
    gaps.push(Math.max(0, starts[i] - ends[i - concurrency]));
  const idle = gaps.reduce((n, g) => n + g, 0);
  const over = (ms) => gaps.filter((g) => g > ms).reduce((n, g) => n + g, 0);
  const lastStart = starts[starts.length - 1];
  const lastEnd = ends[ends.length - 1];
  // The lanes that ended before the last answer stood idle until it: the tail, in lane-ms.
  const tailLaneMs = ends.slice(-concurrency).reduce((n, e) => n + (lastEnd - e), 0);
  // The first CONCURRENCY requests: how long the lanes waited for their first call.
  const startLaneMs = starts.slice(0, concurrency).reduce((n, s) => n + (s - t0), 0);
  const laneMs = concurrency * (lastEnd - t0);
  return {
    /** idle ms of a lane between an answer and its next request, per request */
    meanGapMs: idle / gaps.length,
    p50: percentile(gaps, 50),
    p90: percentile(gaps, 90),
    p99: percentile(gaps, 99),
    max: gaps.length ? Math.max(...gaps) : NaN,
    /** share of the lanes' idle time spent in gaps over 5 ms (an event loop busy elsewhere) */
    over5: idle ? over(5) / idle : 0,
    /** shares of all lane time (CONCURRENCY × resync() -> last answer) lost to each cause */
    lost: {
      start: startLaneMs / laneMs,
      between: idle / laneMs,
      tail: tailLaneMs / laneMs,
    },
    lastSentToEndMs: lastEnd - lastStart,
  };
}

module.exports = { laneGaps };
