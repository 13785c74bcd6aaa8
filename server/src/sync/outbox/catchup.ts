import { hostname } from 'node:os';
import type { Core } from '@strapi/strapi';
import { reasonOf } from '../shared/db-error';
import { toKey } from '../shared/keys';
import type { Outbox } from '.';
import { goneStatePages, onlineKeyPages } from '../shared/entries';
import { modelOf } from '../shared/strapi';
import type { ResourceKind } from '../../remote/types';
import { extend } from '../../utils/objects';
import { getService } from '../../utils';

const STORE_UID = 'strapi::core-store';
const MARKER_PREFIX = 'plugin_location-content_run_';
/** How often a running instance says it is alive. */
const INTERVAL_MS = 30_000;
/** How far before a dead instance's last beat its unwritten intents may go back. */
const SLACK_MS = 60_000;

/** Content types whose changes the middleware records: mapped ones, and those mapped ones read. */
const recordedTypes = (strapi: Core.Strapi): Array<{ uid: string; resource?: ResourceKind }> => {
  const mapped = getService('mappings', { strapi })
    .active()
    .map((m) => ({ uid: m.contentType, resource: m.resource }));
  const related = getService('related', { strapi });
  const read = Object.keys(strapi.contentTypes)
    .filter((uid) => !mapped.some((m) => m.uid === uid) && related.isRead(uid))
    .map((uid) => ({ uid }));
  return [...mapped, ...read];
};

/**
 * Covers the intents a crash (kill -9) lost before the intent buffer wrote them. Each instance
 * keeps a marker in Strapi's core store, beaten every INTERVAL_MS and deleted at a clean stop; a
 * marker left behind makes every recorded entry changed since shortly before its last beat queued
 * again (one queued for nothing costs a read and a hash compare). A boot cannot tell a dead
 * instance of another host from a live replica: it catches up after every foreign marker, and live
 * instances reap a marker that stopped beating (or whose process is gone from this host).
 */
export function createCatchUp(strapi: Core.Strapi, outbox: Outbox) {
  const staleMs = INTERVAL_MS * 3;
  const ownKey = `${MARKER_PREFIX}${outbox.owner}`;
  const store = () => strapi.db.query(STORE_UID);
  let timer: NodeJS.Timeout | undefined;
  let beating: Promise<void> | undefined;

  const host = hostname();
  type StoreRow = { key: string; value: string };
  type Marker = { key: string; beat: number | null; pid?: number; host?: string };

  /** A row of Strapi's core store: `value` is the JSON this file wrote. */
  const markerOf = (row: StoreRow): Marker => {
    let v: Omit<Marker, 'key' | 'beat'> & { beat?: unknown } = {};
    try {
      v = JSON.parse(row.value) ?? {};
    } catch {
      // unreadable: no beat, so dead
    }
    const beat = Number(v.beat);
    return { key: row.key, beat: Number.isFinite(beat) ? beat : null, pid: v.pid, host: v.host };
  };

  const processGone = (pid: number) => {
    if (pid === process.pid) return true; // another run of this same pid (a restarted container): not us
    try {
      process.kill(pid, 0);
      return false;
    } catch (err) {
      return (err as NodeJS.ErrnoException | null)?.code === 'ESRCH';
    }
  };

  /** Sure to be dead: silent for too long, or a process of this host that no longer exists. */
  const dead = (m: Marker) =>
    m.beat == null ||
    m.beat < Date.now() - staleMs ||
    (m.host === host && typeof m.pid === 'number' && processGone(m.pid));

  const foreignMarkers = async (): Promise<Marker[]> => {
    const rows: StoreRow[] = await store().findMany({
      where: { key: { $startsWith: MARKER_PREFIX } },
    });
    return rows.filter((r) => r.key !== ownKey).map(markerOf);
  };

  /** Creates the marker at the first beat, and again if a live instance took this one for dead. */
  const writeBeat = async () => {
    const value = JSON.stringify({ beat: Date.now(), pid: process.pid, host });
    const updated = await store().updateMany({ where: { key: ownKey }, data: { value } });
    if (!updated.count)
      await store().create({
        data: { key: ownKey, value, type: 'object', environment: null, tag: null },
      });
  };

  /** Online versions (published, or saved without draft & publish) changed since `since`. */
  async function* changedSince(uid: string, since: Date) {
    const changed: Array<Record<string, unknown>> = [{ updatedAt: { $gte: since } }];
    // A publish writes the published row's publishedAt (its updatedAt may be the draft's).
    if (modelOf(strapi, uid)?.attributes?.publishedAt)
      changed.push({ publishedAt: { $gte: since } });
    for await (const { keys } of onlineKeyPages(strapi, uid, { $or: changed })) yield keys;
  }

  /** Entries pushed once whose published version is gone (unpublished, deleted): no date tells when. */
  async function* goneOnline(uid: string) {
    for await (const gone of goneStatePages(strapi, getService('state', { strapi }), uid))
      yield gone
        .filter((s) => s.remoteId != null && (s.status === 'synced' || s.status === 'failed'))
        .map(toKey);
  }

  /** Queues every recorded entry that may have changed since `since`; returns how many. */
  const catchUp = async (since: number) => {
    let n = 0;
    for (const { uid, resource } of recordedTypes(strapi)) {
      const sources = [changedSince(uid, new Date(since)), ...(resource ? [goneOnline(uid)] : [])];
      for (const source of sources) {
        for await (const keys of source) {
          await outbox.enqueue(keys.map((k) => extend(k, { resource, reason: 'catch-up' })));
          n += keys.length;
        }
      }
    }
    if (n) getService('worker', { strapi }).wake();
    return n;
  };

  /** Catches up after the runs behind `markers`, then forgets those of them that are dead. */
  const recover = async (markers: Marker[]) => {
    const beats = markers.map((m) => m.beat).filter((b): b is number => b != null);
    if (beats.length) {
      const n = await catchUp(Math.min(...beats) - SLACK_MS);
      if (n)
        strapi.log.warn(
          `[location-content] an earlier run did not stop cleanly: ${n} entr${n === 1 ? 'y' : 'ies'} changed around its end queued again`
        );
    }
    const gone = markers.filter(dead).map((m) => m.key);
    if (gone.length) await store().deleteMany({ where: { key: { $in: gone } } });
  };

  const beat = async () => {
    await writeBeat();
    await recover((await foreignMarkers()).filter(dead));
  };

  return {
    catchUp,
    /** at boot: catch up after runs that did not stop cleanly, then beat */
    async start() {
      const foreign = await foreignMarkers();
      await writeBeat();
      await recover(foreign);
      timer = setInterval(() => {
        beating ??= beat()
          .catch((err) => {
            strapi.log.warn(
              `[location-content] could not record that this instance is alive: ${reasonOf(err)}`
            );
          })
          .finally(() => {
            beating = undefined;
          });
      }, INTERVAL_MS);
      timer.unref?.();
    },
    /** at a stop; `clean` once every intent is written: the next boot has nothing to catch up after this run */
    async stop(clean: boolean) {
      clearInterval(timer);
      await beating;
      if (clean) await store().deleteMany({ where: { key: ownKey } });
    },
  };
}
