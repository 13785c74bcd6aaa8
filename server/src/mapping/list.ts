import { collectProblems } from './errors';
import type { Built } from './pinpoint';
import type { EntryReader } from './reader';
import { listPayload } from '../remote/payloads';
import type { ListRequest } from '../remote/types';

export async function buildList(r: EntryReader): Promise<Built<ListRequest>> {
  const l: ListRequest = {};
  let members: number[] | undefined;
  await collectProblems([
    () => {
      l.name = r.requiredText('name');
    },
    () => {
      l.description = r.html('description');
    },
    async () => {
      if (!r.has('pinpoints')) return;
      // Members not synced yet do not hold the list back: they join when they get their id.
      const { ids } = await r.related('pinpoints', 'member', { blocking: false, single: false });
      members = ids.sort((a, b) => a - b);
    },
  ]);
  return { payload: listPayload(l), ...(members ? { members } : {}) };
}
