import { RemoteError, type RemoteClient } from '../../remote';
import type { ResourceKind } from '../../remote/types';
import { nameKeyOf } from '../inventory/identity';
import type { InventoryRow, InventoryTable } from '../inventory/table';
import type { InventoryWalk } from '../inventory/walk';

/** What identifies the object a lost POST may have created in a listing: fields the remote echoes back. */
export type Fingerprint = {
  name: string;
  latitude?: number;
  longitude?: number;
  pinpoint?: number;
  start?: string;
};

// Typed as sent; a listing's value is checked where it is compared (sameInstant).
const firstStartOf = (o: Record<string, unknown>) =>
  Array.isArray(o.dates) ? (o.dates[0] as { start?: string } | undefined)?.start : undefined;

export function fingerprintOf(
  resource: ResourceKind,
  payload: Record<string, unknown>
): Fingerprint {
  const name = String(payload.name ?? '');
  // The payload is the mapper's output: these fields hold the types the remote is sent.
  const { latitude, longitude, pinpoint } = payload as Omit<Fingerprint, 'name'>;
  if (resource === 'pinpoint') return { name, latitude, longitude };
  if (resource === 'event') return { name, pinpoint, start: firstStartOf(payload) };
  return { name };
}

// A remote may store what it is sent a little differently: coordinates with 5 decimals (about 1 m:
// closer twins are told apart by who claimed them), names trimmed. A miss costs a duplicate.
const COORDINATE_TOLERANCE = 1e-5 + 1e-9;
const close = (a: unknown, b: unknown) =>
  typeof a === 'number' && typeof b === 'number' && Math.abs(a - b) <= COORDINATE_TOLERANCE;
const normalName = (v: unknown) =>
  String(v ?? '')
    .trim()
    .replace(/\s+/g, ' ');
const sameInstant = (a: unknown, b: unknown) =>
  typeof a === 'string' && typeof b === 'string' && Date.parse(a) === Date.parse(b);

export function matches(
  resource: ResourceKind,
  fp: Fingerprint,
  remote: Record<string, unknown>
): boolean {
  if (normalName(remote.name) !== normalName(fp.name)) return false;
  if (resource === 'pinpoint')
    return close(remote.latitude, fp.latitude) && close(remote.longitude, fp.longitude);
  if (resource === 'event')
    return (
      (fp.pinpoint === undefined ||
        remote.pinpoint === undefined ||
        remote.pinpoint === fp.pinpoint) &&
      (fp.start === undefined || sameInstant(firstStartOf(remote), fp.start))
    );
  return true;
}

/** Walks again when an unsteady walk found nothing, at most this many times. */
const MAX_REWALKS = 2;

// A row as `matches` reads a listing: no pinpoint is undefined (null would be another pinpoint).
const asRemote = (row: InventoryRow) => ({
  ...row,
  pinpoint: row.pinpoint ?? undefined,
  dates: row.firstStart ? [{ start: row.firstStart }] : undefined,
});

// Objects a POST whose answer was lost may have made, found in the inventory once a walk started
// after the loss is complete (shared by the lost creates waiting for it; a failed one resumes).
export function createRecovery(deps: {
  walk: Pick<InventoryWalk, 'walkResource' | 'readTail'>;
  table: Pick<InventoryTable, 'byNameKey'>;
}) {
  /** Candidates (ids, newest first) whose fields match, from a walk started after `lostAt`. */
  async function candidates(
    client: RemoteClient,
    resource: ResourceKind,
    fp: Fingerprint,
    lostAt: number
  ): Promise<number[]> {
    if (resource === 'event' && fp.pinpoint !== undefined) {
      // The events at one pinpoint: a short listing, walked directly. A remote may refuse that
      // filter once the pinpoint is gone (400, or 404): then every event is looked at.
      try {
        const ids: number[] = [];
        for await (const o of client.events.list({ pinpoint: fp.pinpoint }))
          if (matches('event', fp, o)) ids.push(o.id);
        return ids.sort((a, b) => b - a);
      } catch (err) {
        if (!(err instanceof RemoteError && (err.status === 400 || err.code === 'not_found')))
          throw err;
      }
    }
    // The common case: the last complete walk saw the collection in ascending id order, and a read
    // from its last page to the end (a page or two) shows every object created since.
    const known = async () =>
      (await deps.table.byNameKey(resource, nameKeyOf(fp.name))).filter((row) =>
        matches(resource, fp, asRemote(row))
      );
    const newestFirst = (rows: InventoryRow[]) => rows.map((r) => r.remoteId).sort((a, b) => b - a);
    if (await deps.walk.readTail(resource, lostAt)) {
      const rows = await known();
      // The last walk and this read together hold every object. A match seen only before the loss
      // (an older twin) may be gone since: only a full walk tells. One seen after it (by a walk
      // that was under way when the create was lost) is as fresh as a new walk would make it.
      if (rows.every((row) => row.seenAt >= lostAt)) return newestFirst(rows);
    }
    let notBefore = lostAt;
    for (let round = 0; ; round++) {
      const phase = await deps.walk.walkResource(resource, notBefore);
      const ids = newestFirst(await known());
      // Every page gave the same `count`, or not: when it changed, an object may have been deleted
      // during the walk, and with offset pages (the real service's) the objects after it moved back
      // by one: one of them may have slipped past the walk.
      if (ids.length || phase.counts.length <= 1 || round >= MAX_REWALKS) return ids;
      notBefore = phase.startedAt;
    }
  }

  return { candidates };
}
