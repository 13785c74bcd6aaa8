import { RESOURCES, type ResourceKind } from '../../remote/types';
import type { InventoryProgress } from '../../../../shared/contracts/inventory';
import { failureOf } from '../shared/db-error';
import { walkMembers } from './members';
import { createTailReader, type Running } from './tail';
import {
  NOT_SENT,
  WalkStoppedError,
  createWalkContext,
  refused,
  sentMark,
  type PhaseState,
  type RemotePage,
  emptyStored,
  type WalkDeps,
} from './walk-context';

/**
 * The inventory walk: every collection page by page through `next`, each page stored as it
 * comes. A failed page is asked again in place (a GET is safe to repeat); a walk that still
 * fails keeps its place and resumes from it.
 */
export function createInventoryWalk(deps: WalkDeps) {
  const ctx = createWalkContext(deps);
  const { strapi, table, load, save, pageOf } = ctx;
  const running = new Map<ResourceKind, Running<PhaseState>>();
  const tail = createTailReader(ctx, running);
  let full: Promise<void> | undefined;
  let membersRunning: Promise<void> | undefined;
  ctx.busy = () => Boolean(full) || running.size > 0 || tail.pending().length > 0;

  const freshPhase = (): PhaseState => ({
    startedAt: NOT_SENT,
    next: null,
    pages: 0,
    objects: 0,
    counts: [],
    done: false,
    ascending: true,
  });

  const runPhase = async (resource: ResourceKind, phase: PhaseState): Promise<PhaseState> => {
    const s = await load();
    s.phases[resource] = phase;
    const followed = new Set<string>();
    /** the next page, asked for while this one is stored */
    let ahead: Promise<RemotePage> | null = null;
    for (;;) {
      let page: RemotePage;
      try {
        page = await (ahead ?? pageOf(resource, phase.next, undefined, sentMark(phase)));
      } catch (err) {
        ahead = null;
        if (phase.next && refused(err)) {
          strapi.log.warn(
            `[location-content] the remote refused the stored page link of the ${resource} inventory (${(err as Error).message}): walking it again from the start`
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
      await ctx.store(resource, page);
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
      if (ctx.stopped) throw new WalkStoppedError();
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
          return s.phases[resource]?.startedAt ?? NOT_SENT;
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

  /** A complete walk of every collection and list membership; an interrupted one resumes. */
  const walkAll = (): Promise<void> => {
    full ??= (async () => {
      const s = await load();
      if (!s.walk || s.walk.state === 'done')
        s.walk = { startedAt: Date.now(), state: 'running', error: null };
      const walk = s.walk;
      walk.state = 'running';
      walk.error = null;
      await save();
      try {
        for (const resource of RESOURCES) await walkResource(resource, walk.startedAt - 1);
        membersRunning = walkMembers(ctx, walk.startedAt - 1);
        await membersRunning;
        walk.state = 'done';
        s.lastCompleteAt = Date.now();
        await save();
      } catch (err) {
        walk.state = 'failed';
        walk.error = failureOf(err);
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

  const settle = async () => {
    await Promise.allSettled([
      full,
      ...[...running.values()].map((r) => r.promise),
      ...tail.pending(),
    ]);
    await ctx.saved();
  };

  return {
    /** The account the inventory describes, as `account.ts` keys it; null before it was kept. */
    account: async () => (await load()).account ?? null,
    lastCompleteAt: async () => (await load()).lastCompleteAt,
    /** A full walk that a stop or a failure interrupted: it resumes from the last page reached. */
    interrupted: async () => ['running', 'failed'].includes((await load()).walk?.state ?? 'none'),

    /** Drops another account's objects (they would be proposed for linking), a walk under way first. */
    async forget(next: string) {
      ctx.stopped = true;
      try {
        await settle();
        await table.clear();
        Object.assign(await load(), emptyStored(next));
        await save();
      } finally {
        ctx.stopped = false;
      }
    },

    /** Names the account of an inventory walked before its account was kept. */
    async setAccount(next: string) {
      (await load()).account = next;
      await save();
    },

    walkAll,
    walkResource,
    readTail: tail.readTail,

    async progress(): Promise<InventoryProgress> {
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
      return {
        // Stored as running but not run here: interrupted, idle until it resumes.
        state: full ? 'running' : s.walk?.state === 'running' ? 'idle' : (s.walk?.state ?? 'idle'),
        startedAt: s.walk ? new Date(s.walk.startedAt).toISOString() : null,
        phase: RESOURCES.find((r) => running.has(r)) ?? (membersRunning ? 'members' : null),
        phases,
        error: s.walk?.error ?? null,
        lastCompleteAt: s.lastCompleteAt ? new Date(s.lastCompleteAt).toISOString() : null,
        held: await table.counts(),
        unowned: await table.unownedCount(),
      };
    },

    /** At boot, before any walk. */
    start: () => void (ctx.stopped = false),
    async stop() {
      ctx.stopped = true;
      await settle();
    },
    isRunning: () => Boolean(full),
  };
}

export type InventoryWalk = ReturnType<typeof createInventoryWalk>;
