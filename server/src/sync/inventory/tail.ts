import type { ResourceKind } from '../../remote/types';
import {
  NOT_SENT,
  WalkStoppedError,
  refused,
  sentMark,
  type PhaseState,
  type RemotePage,
  type TailMark,
  type WalkContext,
} from './walk-context';

/** Pages a tail read steps back (through `previous`) to find its place after deletions. */
const TAIL_BACK_STEPS = 3;
/** Past this many pages a tail read gives way to a full walk (its pages are kept all the same). */
const TAIL_MAX_PAGES = 25;

/** A walk or a tail read under way: one that started after a loss covers it. */
export type Running<T = unknown> = { startedAt: number; promise: Promise<T> };

export function createTailReader(ctx: WalkContext, running: Map<ResourceKind, Running>) {
  const { table, pageOf, save, load } = ctx;
  const tails = new Map<ResourceKind, Running<boolean>>();

  /**
   * Reads from the last page of the last complete walk to the end. False when what it sees does
   * not show that it holds every object created since that walk: then only a full walk can tell.
   */
  const runTail = async (
    resource: ResourceKind,
    phase: PhaseState,
    mark: TailMark,
    read: { startedAt: number }
  ): Promise<boolean> => {
    let pages = 0;
    /** A page, or null when the remote refuses its link (an expired cursor, a changed format). */
    const readOrNull = async (link: string | null) => {
      try {
        const page = await pageOf(resource, link, undefined, sentMark(read));
        pages += 1;
        return page;
      } catch (err) {
        if (refused(err)) return null;
        throw err;
      }
    };
    let link = mark.link;
    let page = await readOrNull(link);
    // Deletions before it move a page's objects back (offset pages): step back through
    // `previous` until the page holds an object the last walk saw, or is the first.
    const placed = (p: RemotePage) =>
      !p.previous || (p.results.length > 0 && Number(p.results[0].id) <= mark.maxId);
    for (let back = 0; page && !placed(page); back++) {
      if (back >= TAIL_BACK_STEPS) return false;
      link = page.previous;
      page = await readOrNull(link);
    }
    if (!page) return false;
    // Ids still in ascending order from there to the end: the remote lists objects by id, and
    // whatever was created since the walk, with an id above its greatest, is in these pages.
    let last = -Infinity;
    const followed = new Set<string>();
    const idsOf = (p: RemotePage) => p.results.map((o) => Number(o.id)).join(',');
    for (;;) {
      for (const o of page.results) {
        const id = Number(o.id);
        if (!(id > last)) return false;
        last = id;
      }
      await ctx.store(resource, page);
      if (!page.next) break;
      if (followed.has(page.next) || pages >= TAIL_MAX_PAGES) return false;
      followed.add(page.next);
      const before = idsOf(page);
      link = page.next;
      page = await readOrNull(link);
      if (!page?.previous) return false;
      // With offset pages, a deletion while the next page was on its way moves an object from
      // it onto the page just read, unseen: the page before (through `previous`, as given) must
      // read the same as it did.
      const again = await readOrNull(page.previous);
      if (!again || idsOf(again) !== before) return false;
    }
    // Our own creates since the walk (the sync states know their ids) got ids above the walk's
    // greatest, and were seen: an owned id at or below it that the inventory does not hold is an
    // object made with a lower id (or one gone): the order cannot be relied upon.
    if (await table.ownedNotHeld(resource, mark.maxId)) return false;
    // The next read starts where this one ended.
    if (phase.tail === mark) {
      phase.tail = { link, maxId: Math.max(mark.maxId, last) };
      await save();
    }
    return true;
  };

  /**
   * Reads the objects created since the last complete walk of `resource`, from where that walk
   * ended, in a read that started after `notBefore` (shared by every caller it serves). False when
   * no walk left a mark, a full walk that covers `notBefore` is running, or the tail cannot be
   * trusted: the caller then needs `walkResource`.
   */
  const readTail = async (resource: ResourceKind, notBefore: number): Promise<boolean> => {
    for (;;) {
      const s = await load();
      if (ctx.stopped) throw new WalkStoppedError();
      const current = tails.get(resource);
      if (current) {
        if (current.startedAt > notBefore) return current.promise;
        await current.promise.catch(() => undefined);
        continue;
      }
      const full = running.get(resource);
      if (full) {
        if (full.startedAt > notBefore) return false;
        await full.promise.catch(() => undefined);
        continue;
      }
      const phase = s.phases[resource];
      if (!phase?.done || !phase.tail) return false;
      const entry = { startedAt: NOT_SENT, promise: Promise.resolve(false) };
      entry.promise = runTail(resource, phase, phase.tail, entry);
      tails.set(resource, entry);
      entry.promise
        .finally(() => tails.get(resource) === entry && tails.delete(resource))
        .catch(() => undefined);
      return entry.promise;
    }
  };

  return { readTail, pending: () => [...tails.values()].map((t) => t.promise) };
}
