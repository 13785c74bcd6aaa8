import { collectProblems } from './errors';
import type { EntryReader } from './reader';
import { pinpointPayload } from '../remote/payloads';
import type { PinpointRequest } from '../remote/types';

export interface Built<P> {
  payload: P;
  members?: number[];
}

/**
 * Optional text fields that are mapped are always sent, empty included: the remote's PUT may keep
 * omitted fields, so omitting a field the editor cleared would leave the old text online.
 */
export async function buildPinpoint(r: EntryReader): Promise<Built<PinpointRequest>> {
  const p: PinpointRequest = {};
  let members: number[] | undefined;
  await collectProblems([
    () => {
      p.name = r.requiredText('name');
    },
    () => {
      p.description = r.html('description');
    },
    () => {
      p.address = r.text('address');
    },
    () => {
      const position = r.position();
      p.latitude = position.latitude;
      p.longitude = position.longitude;
      if (position.altitude !== undefined) p.altitude = position.altitude;
    },
    // An explicit altitude field wins over one carried by the coordinates.
    () => {
      const a = r.number('altitude');
      if (a !== undefined) p.altitude = a;
    },
    () => {
      p.tags = r.tags('tags');
    },
    async () => {
      p.media_file = await r.media('media');
    },
    () => {
      p.media_credits = r.text('media_credits');
    },
    async () => {
      // No relation: no `category` key. The contract types it as an integer, so null is not sent.
      const { ids } = await r.related('category', 'category', { blocking: true, single: true });
      if (ids.length > 0) p.category = ids[0];
    },
    async () => {
      if (!r.has('lists')) return;
      const { ids } = await r.related('lists', 'list', { blocking: false, single: false });
      members = ids.sort((a, b) => a - b);
    },
  ]);
  return { payload: pinpointPayload(p), ...(members ? { members } : {}) };
}
