import { withRetries } from '../remote/retry';
import { getService } from '../utils';
import type { ImportContext } from './context';

/**
 * Event answers do not carry their pinpoint (the contract lists it as a request field only), so
 * the pinpoint of each event is read the way the contract offers: `GET /v3.0/events?pinpoint=:id`
 * for the account's pinpoints in turn, until every event to import has been found. Each pinpoint's
 * pages are GETs in the rate-limited queue's background lane, asked again on a transient failure;
 * `after` is where a resumed job goes on.
 */
export function createEventLinks({ strapi, items }: ImportContext, stopped: () => boolean) {
  const settings = () => getService('settings', { strapi });

  /** Ids of the events at one pinpoint, every page followed through `next` (remote/resource.ts). */
  const eventsAt = async (pinpointId: number): Promise<number[]> => {
    const client = await settings().remoteClient();
    const limiter = settings().limiter();
    return withRetries(
      () =>
        limiter.background(async () => {
          const ids: number[] = [];
          for await (const event of client.events.list({ pinpoint: pinpointId }))
            ids.push(event.id);
          return ids;
        }),
      {
        attempts: 8,
        delayMs: (attempt) => Math.min(10_000, 250 * 2 ** (attempt - 1)),
        before: () => {
          if (stopped())
            throw new Error('the import stopped with Strapi; it resumes at the next start');
        },
      }
    );
  };

  /** Reads pinpoints after `after` until no event to import lacks its pinpoint; `onPage` keeps the place. */
  const run = async (after: number, onPage: (after: number) => Promise<void>) => {
    while ((await items.eventsWithoutPinpoint()) > 0) {
      const pinpoints = await getService('inventory', { strapi }).table.page('pinpoint', after, 20);
      if (!pinpoints.length) return;
      for (const p of pinpoints) {
        await items.setPinpoint(await eventsAt(p.remoteId), p.remoteId);
        after = p.remoteId;
      }
      await onPage(after);
    }
  };

  return { run };
}
