/**
 * Link: onboarding an account that already has content. Every online entry without a remote object
 * is matched against the inventory objects of its resource that no entry owns, by what identifies
 * them. Confirming records the links (the next push of a linked entry is an update) and queues
 * those pushes.
 */
import type { Core } from '@strapi/strapi';
import { errors } from '@strapi/utils';
import { mapEntry, MappingError } from '../../mapping';
import { RESOURCES, type ResourceKind } from '../../remote/types';
import { onlineKeyPages } from '../shared/entries';
import { identityOf, type RemoteIdentity } from '../inventory/identity';
import type { InventoryRow } from '../inventory/table';
import { keyString, toKey } from '../shared/keys';
import type { EntryKey } from '../shared/types';
import type {
  LinkCandidate,
  LinkEntry,
  LinkProposal,
} from '../../../../shared/contracts/inventory';
import type { LinkOptions } from '../../../../shared/contracts/sync';
import { extend } from '../../utils/objects';
import { getService } from '../../utils';

/** About a metre: what a remote that rounds coordinates to 5 decimals moves a point by, with room. */
const SAME_PLACE_METRES = 1.2;

/** Does a remote object identify as the entry's (its payload's identity)? */
function sameObject(resource: ResourceKind, mine: RemoteIdentity, remote: InventoryRow): boolean {
  if (remote.nameKey !== mine.nameKey) return false;
  if (resource === 'pinpoint') {
    const { latitude: lat1, longitude: lng1 } = mine;
    const { latitude: lat2, longitude: lng2 } = remote;
    if (lat1 == null || lng1 == null || lat2 == null || lng2 == null) return false;
    const dy = (lat2 - lat1) * 111_320;
    const dx = (lng2 - lng1) * 111_320 * Math.cos(((lat1 + lat2) / 2) * (Math.PI / 180));
    return Math.hypot(dx, dy) <= SAME_PLACE_METRES;
  }
  if (resource === 'event') {
    // Event answers do not carry their pinpoint: it is compared when the remote gave it.
    if (mine.pinpoint != null && remote.pinpoint != null && mine.pinpoint !== remote.pinpoint)
      return false;
    return mine.firstStart != null && remote.firstStart === mine.firstStart;
  }
  return true;
}

const candidateOf = (r: InventoryRow): LinkCandidate => ({
  remoteId: r.remoteId,
  name: r.name,
  latitude: r.latitude,
  longitude: r.longitude,
  firstStart: r.firstStart,
});

export function createLinker(strapi: Core.Strapi) {
  const states = () => getService('state', { strapi });
  const table = () => getService('inventory', { strapi }).table;
  const pusher = () => getService('push', { strapi });

  const propose = async (limit: number) => {
    const completeAt = await getService('inventory', { strapi }).walk.lastCompleteAt();
    if (!completeAt)
      throw new errors.ValidationError(
        'Walk the remote inventory first: linking compares entries with the objects it found.'
      );
    const linked: LinkProposal['linked'] = [];
    const ambiguous: LinkProposal['ambiguous'] = [];
    const unmatched: LinkEntry[] = [];
    /** `resource:remoteId` of each object proposed -> its row and the entries it was proposed to */
    const proposed = new Map<string, { row: InventoryRow; keys: string[] }>();
    const mappings = [...getService('mappings', { strapi }).active()].sort(
      (a, b) => RESOURCES.indexOf(a.resource) - RESOURCES.indexOf(b.resource)
    );

    for (const mapping of mappings) {
      const resource = mapping.resource;
      for await (const page of onlineKeyPages(strapi, mapping.contentType)) {
        const known = await states().getMany(page.keys);
        for (const key of page.keys) {
          if (known.get(keyString(key))?.remoteId != null) continue;
          let payload: Record<string, unknown>;
          try {
            const entry = await pusher().readEntry(key, mapping);
            if (!entry) continue;
            const outcome = await mapEntry(mapping, entry, pusher().mappingContext());
            if (outcome.action === 'skip') continue;
            // (A request interface, read here by field name: identity and name.)
            payload = outcome.payload as Record<string, unknown>;
          } catch (err) {
            // An entry that cannot be mapped cannot be pushed either: its own error shows it.
            if (err instanceof MappingError) continue;
            throw err;
          }
          const mine = identityOf(resource, payload);
          const free: InventoryRow[] = [];
          for (const r of await table().byNameKey(resource, mine.nameKey))
            if (
              sameObject(resource, mine, r) &&
              !(await states().isRemoteIdClaimed(resource, r.remoteId))
            )
              free.push(r);
          const item: LinkEntry = extend(key, { resource, name: String(payload.name ?? '') });
          if (!free.length) unmatched.push(item);
          else if (free.length === 1) linked.push(extend(item, { remoteId: free[0].remoteId }));
          else ambiguous.push(extend(item, { candidates: free.map(candidateOf) }));
          for (const row of free) {
            const tag = `${resource}:${row.remoteId}`;
            const seen = proposed.get(tag) ?? proposed.set(tag, { row, keys: [] }).get(tag)!;
            seen.keys.push(keyString(key));
          }
        }
      }
    }
    // One object the only candidate of two entries cannot be both: the editor says which.
    const contested = (l: LinkProposal['linked'][number]) =>
      proposed.get(`${l.resource}:${l.remoteId}`)!.keys.length > 1;
    for (const { remoteId, ...entry } of linked.filter(contested))
      ambiguous.push(
        extend(entry, {
          candidates: [candidateOf(proposed.get(`${entry.resource}:${remoteId}`)!.row)],
        })
      );
    const sure = linked.filter((l) => !contested(l));

    const unowned: LinkProposal['unowned'] = [];
    let unownedCount = 0;
    for (const resource of RESOURCES) {
      for await (const r of table().unowned(resource)) {
        if (proposed.has(`${resource}:${r.remoteId}`)) continue;
        unownedCount += 1;
        if (unowned.length < limit) unowned.push({ resource, remoteId: r.remoteId, name: r.name });
      }
    }
    const proposal: Omit<LinkProposal, 'applied'> = {
      inventoryCompleteAt: new Date(completeAt).toISOString(),
      linked: sure.slice(0, limit),
      ambiguous: ambiguous.slice(0, limit),
      unmatched: unmatched.slice(0, limit),
      unowned,
      counts: {
        linked: sure.length,
        ambiguous: ambiguous.length,
        unmatched: unmatched.length,
        unowned: unownedCount,
      },
      truncatedAt: limit,
    };
    return { proposal, all: { linked: sure, ambiguous } };
  };

  /** Records one link unless the entry got an object or the object an owner meanwhile. */
  const linkOne = async (key: EntryKey, resource: ResourceKind, remoteId: number) => {
    const state = await states().get(key);
    if (state?.remoteId != null || (await states().isRemoteIdClaimed(resource, remoteId)))
      return false;
    // The list's members as the remote holds them: the next push adds and removes only the difference.
    const members = resource === 'list' ? await table().membersOf(remoteId) : null;
    await states().upsert(key, {
      resource,
      remoteId,
      payloadHash: null,
      status: 'pending',
      members,
      createStartedAt: null,
      createFingerprint: null,
    });
    return true;
  };

  const link = async (options: LinkOptions = {}): Promise<LinkProposal> => {
    const { proposal, all } = await propose(options.limit ?? 100);
    if (options.dryRun !== false) return extend(proposal, { applied: 0 });
    const picks = [...all.linked];
    const chosen = new Set<string>();
    for (const a of all.ambiguous) {
      const choice = options.choices?.[keyString(a)];
      if (choice == null) continue;
      if (!a.candidates.some((c) => c.remoteId === choice))
        throw new errors.ValidationError(`${keyString(a)}: ${choice} is not one of its candidates`);
      const tag = `${a.resource}:${choice}`;
      if (chosen.has(tag))
        throw new errors.ValidationError(
          `remote ${a.resource} ${choice} was picked for two entries`
        );
      chosen.add(tag);
      picks.push(extend(a, { remoteId: choice }));
    }
    const queued = [];
    for (const p of picks) {
      const key = toKey(p);
      if (await linkOne(key, p.resource, p.remoteId))
        queued.push(extend(key, { resource: p.resource, reason: 'linked' }));
    }
    // Each linked entry is pushed: an update in place, never a create.
    await getService('outbox', { strapi }).enqueue(queued);
    getService('worker', { strapi }).wake();
    return extend(proposal, { applied: queued.length });
  };

  return { link };
}
