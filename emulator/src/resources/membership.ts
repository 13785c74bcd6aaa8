/** Pinpoints added to or removed from a list (POST / DELETE /v3.0/lists/:id/pinpoints). */
import { json, notFound, type Reply } from '../http';
import type { ResourceHost } from './tables';

export function changeMembership(
  host: ResourceHost,
  listId: number,
  ids: number[],
  add: boolean
): Reply {
  const list = host.store.lists.get(listId);
  if (!list) throw notFound();
  const errors: Array<{ id: number; detail: string }> = [];
  for (const id of ids) {
    if (!host.store.pinpoints.has(id)) {
      errors.push({ id, detail: 'Not found.' });
      continue;
    }
    if (add) list.members.add(id);
    else list.members.delete(id);
  }
  list.updated = host.clock.now();
  // total: pinpoints in the list after the operation.
  return json(200, { errors, total: list.members.size });
}
