import type { Core } from '@strapi/strapi';
import { randomUUID } from 'node:crypto';
import { RemoteError, type RemoteClient } from '../../remote';
import type { Page, ResourceKind } from '../../remote/types';
import { PLUGIN_ID } from '../../permissions';
import { isRateLimitWait } from '../limiter';
import type { InventoryProgress } from '../../../../shared/contracts/inventory';
import { identityOf } from './identity';
import type { InventoryTable } from './table';

/** One resource's walk: where it is, so that it resumes there after a failure or a restart. */
export interface PhaseState {
  walkId: string;
  /**
   * When its first page request left (after its wait behind the pushes): every object created
   * before then is in the walk. NOT_SENT until then.
   */
  startedAt: number;
  /** the `next` link of the last page stored, as the remote gave it; null before the first page */
  next: string | null;
  pages: number;
  objects: number;
  /** distinct `count` values the pages gave: more than one, and objects may have slipped past */
  counts: number[];
  done: boolean;
  finishedAt: number | null;
  /** every id so far greater than the one before it (absent in walks stored before it was kept) */
  ascending?: boolean;
  /** the greatest id seen so far */
  maxId?: number;
  /**
   * Set when a complete walk saw its ids in ascending order: where its last page was (the link
   * it was read from, as the remote gave it; null for the first page) and the greatest id seen.
   * A later read from there finds what was appended since (see `readTail`).
   */
  tail?: TailMark | null;
}

export interface TailMark {
  link: string | null;
  maxId: number;
}

/** What a read of the tail saw: every object appended since the last complete walk, or null. */
export interface TailRead {
  /** when its first page request left: objects created before then are in it */
  startedAt: number;
  pages: number;
}

interface MembersState {
  startedAt: number;
  /** lists with an id up to this one are done */
  listAfter: number;
  current: { listId: number; startedAt: number; next: string | null } | null;
  done: boolean;
}

interface FullWalk {
  id: string;
  startedAt: number;
  state: 'running' | 'done' | 'failed';
  error: string | null;
  finishedAt: number | null;
}

interface Stored {
  walk: FullWalk | null;
  phases: Partial<Record<ResourceKind, PhaseState>>;
  members: MembersState | null;
  lastCompleteAt: number | null;
}

const NOT_SENT = Number.MAX_SAFE_INTEGER;
export const RESOURCES: ResourceKind[] = ['category', 'pinpoint', 'event', 'list'];
const STORE_KEY = 'inventory';
const PAGE_ATTEMPTS = 8;
/** Pages a tail read steps back (through `previous`) to find its place after deletions. */
const TAIL_BACK_STEPS = 3;
/** Past this many pages a tail read gives way to a full walk (its pages are kept all the same). */
const TAIL_MAX_PAGES = 25;

export interface WalkDeps {
  strapi: Core.Strapi;
  table: InventoryTable;
  client: () => Promise<RemoteClient>;
  /** runs remote calls behind the pushes in the rate-limited queue */
  background: <T>(fn: () => Promise<T>, onSent?: (at: number) => void) => Promise<T>;
  /** pause before attempt `n` (1-based) of a page; tests and benchmarks shorten it */
  pageRetryDelayMs?: (attempt: number) => number;
}

const defaultDelay = (attempt: number) =>
  Math.min(10_000, 250 * 2 ** (attempt - 1)) * (0.5 + Math.random() / 2);

/** A stored link the remote no longer takes (an expired cursor, a changed format): walk again from the start. */
const refused = (err: unknown) =>
  err instanceof RemoteError &&
  !err.retryable &&
  (err.status === 400 || err.status === 404 || err.status === 410);
const transient = (err: unknown) =>
  isRateLimitWait(err) || (err instanceof RemoteError && err.retryable);
const messageOf = (err: unknown) => (err instanceof Error ? err.message : String(err));

export class WalkStoppedError extends Error {
  constructor() {
    super('the inventory walk stopped with Strapi; it resumes where it was at the next start');
    this.name = 'WalkStoppedError';
  }
}

/**
 * The inventory walk: every collection page by page through `next`, each page stored as it
 * comes. A failed page is asked again in place (a GET is safe to repeat); a walk that still
 * fails keeps its place and resumes from it.
 */
export function createInventoryWalk(deps: WalkDeps) {
  const { strapi, table } = deps;
  const delay = deps.pageRetryDelayMs ?? defaultDelay;
  const store = () => strapi.store({ type: 'plugin', name: PLUGIN_ID });
  let stored: Stored | undefined;
  let saving: Promise<unknown> = Promise.resolve();
  let stopped = false;
  const running = new Map<ResourceKind, { startedAt: number; promise: Promise<PhaseState> }>();
  let full: Promise<void> | undefined;
  let membersRunning: Promise<void> | undefined;

  const load = async (): Promise<Stored> => {
    if (!stored) {
      const value = (await store().get({ key: STORE_KEY })) as Stored | null;
      stored ??= {
        walk: value?.walk ?? null,
        phases: value?.phases ?? {},
        members: value?.members ?? null,
        lastCompleteAt: value?.lastCompleteAt ?? null,
      };
    }
    return stored;
  };
  /** Writes in order: each page's progress lands after the one before it. */
  const save = () => {
    const snapshot = JSON.parse(JSON.stringify(stored));
    saving = saving
      .then(() => store().set({ key: STORE_KEY, value: snapshot }))
      .catch((err) =>
        strapi.log.warn(
          `[location-content] could not save the inventory walk's progress: ${messageOf(err)}`
        )
      );
    return saving;
  };

  /** One page, asked again on a transient failure; `link` undefined for the first page. */
  const fetchPage = async (
    get: () => Promise<Page<Record<string, any>>>,
    onSent?: (at: number) => void
  ) => {
    for (let attempt = 1; ; attempt++) {
      if (stopped) throw new WalkStoppedError();
      try {
        return await deps.background(get, onSent);
      } catch (err) {
        if (!transient(err) || attempt >= PAGE_ATTEMPTS) throw err;
        await new Promise((r) => setTimeout(r, delay(attempt)));
      }
    }
  };

  const pageOf = async (
    resource: ResourceKind,
    link: string | null,
    filter?: { list?: number },
    onSent?: (at: number) => void
  ) => {
    const client = await deps.client();
    const from = { link: link ?? undefined, filter };
    const api = {
      pinpoint: client.pinpoints,
      event: client.events,
      category: client.categories,
      list: client.lists,
    }[resource] as {
      page(from: { link?: string; filter?: unknown }): Promise<Page<Record<string, any>>>;
    };
    return fetchPage(() => api.page(from), onSent);
  };

  const freshPhase = (): PhaseState => ({
    walkId: randomUUID(),
    startedAt: NOT_SENT,
    next: null,
    pages: 0,
    objects: 0,
    counts: [],
    done: false,
    finishedAt: null,
    ascending: true,
  });

  const runPhase = async (resource: ResourceKind, phase: PhaseState): Promise<PhaseState> => {
    const s = await load();
    s.phases[resource] = phase;
    const followed = new Set<string>();
    /** the next page, asked for while this one is stored */
    let ahead: Promise<Page<Record<string, any>>> | null = null;
    for (;;) {
      let page: Page<Record<string, any>>;
      try {
        if (ahead) page = await ahead;
        else {
          const current = phase;
          const asked = Date.now();
          page = await pageOf(resource, phase.next, undefined, (at) => {
            if (current.startedAt === NOT_SENT) current.startedAt = at;
          });
          // Not told when it left (a limiter without lanes): when it was asked for is earlier still.
          if (current.startedAt === NOT_SENT) current.startedAt = asked;
        }
      } catch (err) {
        ahead = null;
        if (phase.next && refused(err)) {
          strapi.log.warn(
            `[location-content] the remote refused the stored page link of the ${resource} inventory (${messageOf(err)}): walking it again from the start`
          );
          phase = freshPhase();
          s.phases[resource] = phase;
          followed.clear();
          continue;
        }
        await save();
        throw err;
      }
      // A link back to a page already read would loop forever.
      const next = page.next;
      const loops = next !== null && followed.has(next);
      ahead = null;
      if (next && !loops) {
        followed.add(next);
        // Asked for now (one page ahead, so the walk is not slowed by storing each page);
        // its progress is saved only once this page's objects are stored.
        ahead = pageOf(resource, next);
        ahead.catch(() => undefined);
      }
      const seenAt = Date.now();
      await table.upsertObjects(
        resource,
        page.results.map((o) => ({
          id: Number(o.id),
          identity: identityOf(resource, o),
        })),
        seenAt,
        phase.walkId
      );
      phase.pages += 1;
      phase.objects += page.results.length;
      for (const o of page.results) {
        const id = Number(o.id);
        if (phase.ascending) phase.ascending = id > (phase.maxId ?? -Infinity);
        phase.maxId = Math.max(phase.maxId ?? id, id);
      }
      if (page.count !== undefined && !phase.counts.includes(page.count))
        phase.counts.push(page.count);
      if (!next) break;
      if (loops)
        throw new Error(
          `the remote's ${resource} pages link back to a page already read; the walk stopped`
        );
      phase.next = next;
      // Saved in order behind the ones before; not waited for.
      void save();
    }
    await table.removeUnseen(resource, phase.startedAt);
    // A walk stored before `ascending` was kept (undefined) does not know its order; one whose
    // pages gave different counts may have let objects slip past (see recovery.ts).
    phase.tail =
      phase.ascending === true && phase.counts.length <= 1
        ? { link: phase.next, maxId: phase.maxId ?? 0 }
        : null;
    phase.done = true;
    phase.next = null;
    phase.finishedAt = Date.now();
    await save();
    return phase;
  };

  /**
   * A complete walk of `resource` that started after `notBefore`: the one running, the one
   * interrupted (resumed where it stopped), or a new one. Every caller waiting for one shares it.
   */
  const walkResource = async (resource: ResourceKind, notBefore = 0): Promise<PhaseState> => {
    for (;;) {
      // Loaded first: from the look at `running` to the walk set in it, nothing awaits, so two
      // callers woken together by the end of a walk cannot both start one.
      const s = await load();
      if (stopped) throw new WalkStoppedError();
      const current = running.get(resource);
      if (current) {
        if (current.startedAt > notBefore) return current.promise;
        await current.promise.catch(() => undefined);
        continue;
      }
      const known = s.phases[resource];
      if (known?.done && known.startedAt > notBefore) return known;
      const phase = known && !known.done && known.startedAt > notBefore ? known : freshPhase();
      const promise = runPhase(resource, phase);
      // A walk whose first page has not left yet will see everything created until it does.
      const entry = {
        get startedAt() {
          return stored?.phases[resource]?.startedAt ?? NOT_SENT;
        },
        promise,
      };
      running.set(resource, entry);
      promise
        .finally(() => running.get(resource) === entry && running.delete(resource))
        .catch(() => undefined);
      return promise;
    }
  };

  const tails = new Map<ResourceKind, { startedAt: number; promise: Promise<TailRead | null> }>();

  /**
   * Reads from the last page of the last complete walk to the end. Null when what it sees does
   * not show that it holds every object created since that walk: then only a full walk can tell.
   */
  const runTail = async (
    resource: ResourceKind,
    phase: PhaseState,
    mark: TailMark,
    onSent: (at: number) => void
  ): Promise<TailRead | null> => {
    let startedAt = NOT_SENT;
    let pages = 0;
    const read = async (link: string | null) => {
      const asked = Date.now();
      const page = await pageOf(resource, link, undefined, (at) => {
        if (startedAt === NOT_SENT) startedAt = at;
        onSent(at);
      });
      if (startedAt === NOT_SENT) startedAt = asked;
      onSent(asked);
      pages += 1;
      return page;
    };
    const readOrNull = async (link: string | null) => {
      try {
        return await read(link);
      } catch (err) {
        // An expired cursor, a changed format: the tail is not where it was.
        if (refused(err)) return null;
        throw err;
      }
    };
    let link = mark.link;
    let page = await readOrNull(link);
    // Deletions before it move a page's objects back (offset pages): step back through
    // `previous` until the page holds an object the last walk saw, or is the first.
    const placed = (p: Page<Record<string, any>>) =>
      !p.previous || (p.results.length > 0 && Number(p.results[0].id) <= mark.maxId);
    for (let back = 0; page && !placed(page); back++) {
      if (back >= TAIL_BACK_STEPS) return null;
      link = page.previous;
      page = await readOrNull(link);
    }
    if (!page) return null;
    // Ids still in ascending order from there to the end: the remote lists objects by id, and
    // whatever was created since the walk, with an id above its greatest, is in these pages.
    let last = -Infinity;
    const followed = new Set<string>();
    const idsOf = (p: Page<Record<string, any>>) => p.results.map((o) => Number(o.id)).join(',');
    for (;;) {
      for (const o of page.results) {
        const id = Number(o.id);
        if (!(id > last)) return null;
        last = id;
      }
      await table.upsertObjects(
        resource,
        page.results.map((o) => ({ id: Number(o.id), identity: identityOf(resource, o) })),
        Date.now(),
        phase.walkId
      );
      if (!page.next) break;
      if (followed.has(page.next) || pages >= TAIL_MAX_PAGES) return null;
      followed.add(page.next);
      const before = idsOf(page);
      link = page.next;
      page = await readOrNull(link);
      if (!page?.previous) return null;
      // With offset pages, a deletion while the next page was on its way moves an object from
      // it onto the page just read, unseen: the page before (through `previous`, as given) must
      // read the same as it did.
      const again = await readOrNull(page.previous);
      if (!again || idsOf(again) !== before) return null;
    }
    // Our own creates since the walk (the sync states know their ids) got ids above the walk's
    // greatest, and were seen: an owned id at or below it that the inventory does not hold is an
    // object made with a lower id (or one gone): the order cannot be relied upon.
    if (await table.ownedNotHeld(resource, mark.maxId)) return null;
    // The next read starts where this one ended.
    if (phase.tail === mark) {
      phase.tail = { link, maxId: Math.max(mark.maxId, last) };
      await save();
    }
    return { startedAt, pages };
  };

  /**
   * Objects created since the last complete walk of `resource`, read from where that walk ended,
   * by a read that started after `notBefore` (shared by every caller it serves). Null when no
   * walk left a mark, a full walk that covers `notBefore` is running, or the tail cannot be
   * trusted: the caller then needs `walkResource`.
   */
  const readTail = async (resource: ResourceKind, notBefore: number): Promise<TailRead | null> => {
    for (;;) {
      const s = await load();
      if (stopped) throw new WalkStoppedError();
      const current = tails.get(resource);
      if (current) {
        if (current.startedAt > notBefore) return current.promise;
        await current.promise.catch(() => undefined);
        continue;
      }
      const full = running.get(resource);
      if (full) {
        if (full.startedAt > notBefore) return null;
        await full.promise.catch(() => undefined);
        continue;
      }
      const phase = s.phases[resource];
      if (!phase?.done || !phase.tail) return null;
      const entry = { startedAt: NOT_SENT, promise: Promise.resolve<TailRead | null>(null) };
      entry.promise = runTail(resource, phase, phase.tail, (at) => {
        if (entry.startedAt === NOT_SENT) entry.startedAt = at;
      });
      tails.set(resource, entry);
      entry.promise
        .finally(() => tails.get(resource) === entry && tails.delete(resource))
        .catch(() => undefined);
      return entry.promise;
    }
  };

  /** The members of every list held, through `?list=`. */
  const walkMembers = async (notBefore: number) => {
    const s = await load();
    let m = s.members;
    if (!m || m.startedAt <= notBefore || m.done)
      m = { startedAt: Date.now(), listAfter: 0, current: null, done: false };
    s.members = m;
    for (;;) {
      const ids = await table.listIdsAfter(m.listAfter, 50);
      if (!ids.length) break;
      for (const listId of ids) {
        let cur =
          m.current?.listId === listId ? m.current : { listId, startedAt: Date.now(), next: null };
        m.current = cur;
        const followed = new Set<string>();
        for (;;) {
          let page: Page<Record<string, any>>;
          try {
            page = await pageOf('pinpoint', cur.next, { list: listId });
          } catch (err) {
            if (cur.next && refused(err)) {
              cur = { listId, startedAt: Date.now(), next: null };
              m.current = cur;
              followed.clear();
              continue;
            }
            // The list was deleted since it was seen: it has no members to keep.
            if (refused(err)) {
              await table.removeUnseenMembers(listId);
              break;
            }
            await save();
            throw err;
          }
          await table.upsertMembers(
            listId,
            page.results.map((p) => Number(p.id)),
            Date.now(),
            s.walk?.id ?? ''
          );
          if (!page.next) {
            await table.removeUnseenMembers(listId, cur.startedAt);
            break;
          }
          if (followed.has(page.next))
            throw new Error(
              `the remote's pages of list ${listId} link back to a page already read; the walk stopped`
            );
          followed.add(page.next);
          cur.next = page.next;
          await save();
        }
        m.listAfter = listId;
        m.current = null;
        await save();
      }
    }
    await table.removeMembersOfMissingLists();
    m.done = true;
    await save();
  };

  /** A complete walk of every collection and list membership; an interrupted one resumes. */
  const walkAll = (): Promise<void> => {
    full ??= (async () => {
      const s = await load();
      if (!s.walk || s.walk.state === 'done')
        s.walk = {
          id: randomUUID(),
          startedAt: Date.now(),
          state: 'running',
          error: null,
          finishedAt: null,
        };
      const walk = s.walk;
      walk.state = 'running';
      walk.error = null;
      await save();
      try {
        for (const resource of RESOURCES) await walkResource(resource, walk.startedAt - 1);
        membersRunning = walkMembers(walk.startedAt - 1);
        await membersRunning;
        walk.state = 'done';
        walk.finishedAt = Date.now();
        s.lastCompleteAt = walk.finishedAt;
        await save();
      } catch (err) {
        walk.state = 'failed';
        walk.error = messageOf(err);
        await save();
        if (!(err instanceof WalkStoppedError))
          strapi.log.warn(
            `[location-content] the inventory walk stopped: ${walk.error}. It resumes from the last page reached at the next run.`
          );
        throw err;
      } finally {
        full = undefined;
        membersRunning = undefined;
      }
    })();
    return full;
  };

  const progress = async (): Promise<InventoryProgress> => {
    const s = await load();
    const phases = RESOURCES.map((resource) => {
      const p = s.phases[resource];
      return {
        resource,
        pages: p?.pages ?? 0,
        objects: p?.objects ?? 0,
        done: Boolean(p?.done),
        startedAt: p && p.startedAt !== NOT_SENT ? new Date(p.startedAt).toISOString() : null,
      };
    });
    const current = RESOURCES.find((r) => running.has(r)) ?? (membersRunning ? 'members' : null);
    return {
      state: full
        ? ('running' as const)
        : s.walk?.state === 'failed'
          ? ('failed' as const)
          : s.walk?.state === 'done'
            ? ('done' as const)
            : ('idle' as const),
      startedAt: s.walk ? new Date(s.walk.startedAt).toISOString() : null,
      phase: current as ResourceKind | 'members' | null,
      phases,
      error: s.walk?.error ?? null,
      lastCompleteAt: s.lastCompleteAt ? new Date(s.lastCompleteAt).toISOString() : null,
      held: await table.counts(),
      unowned: await table.unownedCount(),
    };
  };

  /** At boot: a full walk that a stop interrupted goes on in the background. */
  const start = async () => {
    stopped = false;
    const s = await load();
    if (s.walk && s.walk.state !== 'done') return true;
    return false;
  };

  const stop = async () => {
    stopped = true;
    await Promise.allSettled([
      full,
      ...[...running.values(), ...tails.values()].map((r) => r.promise),
    ]);
    await saving;
  };

  return {
    walkAll,
    walkResource,
    readTail,
    progress,
    start,
    stop,
    isRunning: () => Boolean(full),
  };
}

export type InventoryWalk = ReturnType<typeof createInventoryWalk>;
export type { InventoryProgress };
