import { createLimiter } from '../../server/src/sync/limiter';

/** The inventory walk shares the rate limit with the pushes, behind them. */
test('calls made in the background lane wait for the pushes already queued', async () => {
  const limiter = createLimiter({ requestsPerSecond: 1000, concurrency: 1 });
  const order: string[] = [];
  const fetch = limiter.wrap(async (url: string) => {
    order.push(url);
    await new Promise((r) => setTimeout(r, 2));
    return { status: 200, headers: new Map() };
  });
  const calls = [
    fetch('push-1'),
    limiter.background(() => fetch('page-1')),
    limiter.background(() => fetch('page-2')),
    fetch('push-2'),
    fetch('push-3'),
  ];
  await Promise.all(calls);
  limiter.stop();
  // push-1 had already left when the rest queued: the pages go last.
  expect(order).toEqual(['push-1', 'push-2', 'push-3', 'page-1', 'page-2']);
});

test('a background call tells when it really left the queue', async () => {
  const limiter = createLimiter({ requestsPerSecond: 1000, concurrency: 1 });
  let left = 0;
  const fetch = limiter.wrap(async () => {
    left = Date.now();
    return { status: 200, headers: new Map() };
  });
  let told = 0;
  await limiter.background(
    () => fetch('page'),
    (at) => (told = at)
  );
  limiter.stop();
  expect(told).toBeGreaterThan(0);
  expect(told).toBeLessThanOrEqual(left);
});
