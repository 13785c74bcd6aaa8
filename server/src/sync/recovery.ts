import { RemoteError, type RemoteClient } from '../remote';
import type { Page, ResourceKind } from '../remote/types';

/**
 * What identifies the object a lost POST may have created: the fields the remote
 * echoes back, so it can be recognised in a listing.
 */
export type Fingerprint = { name: string; latitude?: number; longitude?: number; pinpoint?: number; start?: string };

export function fingerprintOf(resource: ResourceKind, payload: Record<string, any>): Fingerprint {
  const fp: Fingerprint = { name: String(payload.name ?? '') };
  if (resource === 'pinpoint') {
    fp.latitude = payload.latitude;
    fp.longitude = payload.longitude;
  }
  if (resource === 'event') {
    fp.pinpoint = payload.pinpoint;
    fp.start = payload.dates?.[0]?.start;
  }
  return fp;
}

/**
 * A remote may store what it is sent a little differently: coordinates with 5 decimals (about
 * 1 m: closer twins are told apart by who claimed them), names trimmed. A miss costs a duplicate.
 */
const COORDINATE_TOLERANCE = 1e-5 + 1e-9;
const close = (a: unknown, b: unknown) => typeof a === 'number' && typeof b === 'number' && Math.abs(a - b) <= COORDINATE_TOLERANCE;
const normalName = (v: unknown) => String(v ?? '').trim().replace(/\s+/g, ' ');
const sameInstant = (a: unknown, b: unknown) =>
  typeof a === 'string' && typeof b === 'string' && Date.parse(a) === Date.parse(b);

export function matches(resource: ResourceKind, fp: Fingerprint, remote: Record<string, any>): boolean {
  if (normalName(remote.name) !== normalName(fp.name)) return false;
  if (resource === 'pinpoint') return close(remote.latitude, fp.latitude) && close(remote.longitude, fp.longitude);
  if (resource === 'event')
    return (fp.pinpoint === undefined || remote.pinpoint === undefined || remote.pinpoint === fp.pinpoint) && (fp.start === undefined || sameInstant(remote.dates?.[0]?.start, fp.start));
  return true;
}

interface Listing {
  walkStartedAt: number;
  objects: Array<Record<string, any>>;
  /**
   * Every page gave the same `count`. When it changed, an object may have been deleted during
   * the walk, and with offset pages (the real service's) the objects after it moved back by one:
   * one of them may have slipped past the walk.
   */
  steady: boolean;
}

/** Walks again when an unsteady walk found nothing, at most this many times. */
const MAX_REWALKS = 2;

/**
 * Finds remote objects that a POST whose answer was lost may have created. A walk of a
 * whole collection is shared by every recovery that happened before it started, so a
 * burst of lost answers costs one walk, not one each.
 */
export function createRecovery(options: { ttlMs?: number } = {}) {
  const ttl = options.ttlMs ?? 60_000;
  const listings = new Map<string, Promise<Listing>>();

  const walk = async (client: RemoteClient, resource: ResourceKind, pinpoint?: number): Promise<Listing> => {
    const walkStartedAt = Date.now();
    const objects: Array<Record<string, any>> = [];
    const counts = new Set<number>();
    const pages =
      resource === 'pinpoint'
        ? client.pinpoints.listPages()
        : resource === 'event'
          ? client.events.listPages(pinpoint ? { pinpoint } : undefined)
          : resource === 'category'
            ? client.categories.listPages()
            : client.lists.listPages();
    for await (const page of pages as AsyncIterable<Page<Record<string, any>>>) {
      if (page.count !== undefined) counts.add(page.count);
      // Keep only what matching reads: a listing of many pinpoints stays small.
      for (const o of page.results) {
        objects.push({ id: o.id, name: o.name, latitude: o.latitude, longitude: o.longitude, pinpoint: o.pinpoint, dates: o.dates?.slice(0, 1) });
      }
    }
    return { walkStartedAt, objects, steady: counts.size <= 1 };
  };

  const matching = (resource: ResourceKind, fp: Fingerprint, listing: Listing) =>
    listing.objects
      .filter((o) => matches(resource, fp, o))
      .map((o) => Number(o.id))
      .sort((a, b) => b - a);

  /** A listing of the objects that may match `fp`, from a walk started after `notBefore`. */
  async function listingFor(client: RemoteClient, resource: ResourceKind, fp: Fingerprint, notBefore: number): Promise<Listing> {
    if (resource === 'event' && fp.pinpoint !== undefined) {
      // Events can be listed by pinpoint: a cheap, exact walk every time. A remote may refuse
      // that filter once the pinpoint is gone (400, or 404): then every event is looked at.
      try {
        return await walk(client, resource, fp.pinpoint);
      } catch (err) {
        if (!(err instanceof RemoteError && (err.status === 400 || err.code === 'not_found'))) throw err;
        return await walk(client, resource);
      }
    }
    const cacheKey: string = resource;
    let pending = listings.get(cacheKey);
    let listing = pending ? await pending.catch(() => undefined) : undefined;
    if (!listing || listing.walkStartedAt <= notBefore || Date.now() - listing.walkStartedAt > ttl) {
      pending = walk(client, resource);
      listings.set(cacheKey, pending);
      try {
        listing = await pending;
      } catch (err) {
        // (A later walk may have taken its place meanwhile.)
        if (listings.get(cacheKey) === pending) listings.delete(cacheKey);
        throw err;
      }
    }
    return listing;
  }

  /** Candidates (ids, newest first) whose fields match, from a listing started after `lostAt`. */
  async function candidates(client: RemoteClient, resource: ResourceKind, fp: Fingerprint, lostAt: number): Promise<number[]> {
    let notBefore = lostAt;
    for (let round = 0; ; round++) {
      const listing = await listingFor(client, resource, fp, notBefore);
      const ids = matching(resource, fp, listing);
      if (ids.length || listing.steady || round >= MAX_REWALKS) return ids;
      notBefore = listing.walkStartedAt;
    }
  }

  return { candidates, forget: () => listings.clear() };
}

export type Recovery = ReturnType<typeof createRecovery>;
