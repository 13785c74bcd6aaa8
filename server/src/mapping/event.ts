import { collectProblems, MappingError } from './errors';
import type { Built } from './pinpoint';
import type { EntryReader } from './reader';
import { eventPayload } from '../remote/payloads';
import type { EventRequest } from '../remote/types';

export async function buildEvent(r: EntryReader): Promise<Built<EventRequest>> {
  const e: EventRequest = {};
  await collectProblems([
    () => {
      e.name = r.requiredText('name');
    },
    () => {
      e.description = r.html('description');
    },
    () => {
      e.dates = r.dates('dates');
    },
    async () => {
      const { ids, count } = await r.related('pinpoint', 'pinpoint', {
        blocking: true,
        single: true,
      });
      if (count === 0) {
        throw new MappingError(
          'pinpoint',
          'no related entry; the remote needs the pinpoint where the event takes place'
        );
      }
      if (ids.length > 0) e.pinpoint = ids[0];
    },
    () => {
      e.tags = r.tags('tags');
    },
    async () => {
      e.media_file = await r.media('media');
    },
    () => {
      e.media_credits = r.text('media_credits');
    },
  ]);
  return { payload: eventPayload(e) };
}
