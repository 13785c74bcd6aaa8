import { payloadHash, type UpsertOutcome } from '../../mapping';
import type { RemoteClient } from '../../remote';
import type { ResourceKind } from '../../remote/types';
import type { StateRecord } from '../state';

// A list whose name and description are those its last push sent: only its members changed, and
// the push makes the membership calls alone (the last hash covered payload and members).
export const onlyMembersChanged = (outcome: UpsertOutcome, state: StateRecord | null): boolean =>
  outcome.resource === 'list' &&
  state?.remoteId != null &&
  state.payloadHash != null &&
  payloadHash({
    resource: outcome.resource,
    payload: outcome.payload,
    members: state.members ?? undefined,
  }) === state.payloadHash;

/** The ids a membership answer's `errors` name. Null when one of them names none: its call is then uncertain. */
export function idsInErrors(errors: unknown[]): Set<number> | null {
  const ids = new Set<number>();
  for (const e of errors) {
    const o = e as { id?: unknown; pk?: unknown } | null;
    const raw = o && typeof o === 'object' ? (o.id ?? o.pk) : e;
    const id = typeof raw === 'string' && /^\d+$/.test(raw) ? Number(raw) : raw;
    if (typeof id !== 'number' || !Number.isSafeInteger(id)) return null;
    ids.add(id);
  }
  return ids;
}

// Adds and removes only the difference. What `errors` names (every id of the call when an error
// names none) is not recorded as done, so the next push tries it again.
export const membershipDiff = async (
  client: RemoteClient,
  resource: ResourceKind,
  remoteId: number,
  before: number[],
  after: number[]
) => {
  if (resource === 'list' && before.length + after.length > 0) {
    // The remote's own member list, not our record of it: a membership call whose answer was
    // lost (or that a cascade undid) would otherwise leave the difference wrong for ever.
    before = [];
    for await (const p of client.pinpoints.list({ list: remoteId })) before.push(p.id);
  }
  const add = after.filter((id) => !before.includes(id));
  const drop = before.filter((id) => !after.includes(id));
  const errors: unknown[] = [];
  const members = new Set(before);
  const calls = [
    { ids: add, call: client.lists.addPinpoints, done: (id: number) => members.add(id) },
    { ids: drop, call: client.lists.removePinpoints, done: (id: number) => members.delete(id) },
  ];
  for (const { ids, call, done } of calls) {
    if (resource !== 'list') {
      // A pinpoint that names its lists: one membership call per list changed.
      for (const listId of ids) {
        const result = await call(listId, [remoteId]);
        errors.push(...result.errors);
        if (!result.errors.length) done(listId);
      }
    } else if (ids.length) {
      const result = await call(remoteId, ids);
      errors.push(...result.errors);
      const refused = idsInErrors(result.errors);
      if (refused) ids.filter((id) => !refused.has(id)).forEach(done);
    }
  }
  return { members: [...members], errors };
};
