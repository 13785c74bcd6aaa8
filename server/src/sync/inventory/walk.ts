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
  });

  const runPhase = async (resource: ResourceKind, phase: PhaseState): Promise<PhaseState> => {
    const s = await load();
    s.phases[resource] = phase;
    const followed = new Set<string>();
    for (;;) {
      let page: Page<Record<string, any>>;
      try {
        const current = phase;
        const asked = Date.now();
        page = await pageOf(resource, phase.next, undefined, (at) => {
          if (current.startedAt === NOT_SENT) current.startedAt = at;
        });
        // Not told when it left (a limiter without lanes): when it was asked for is earlier still.
        if (current.startedAt === NOT_SENT) current.startedAt = asked;
      } catch (err) {
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
      if (page.count !== undefined && !phase.counts.includes(page.count))
        phase.counts.push(page.count);
      if (!page.next) break;
      // A link back to a page already read would loop forever.
      if (followed.has(page.next))
        throw new Error(
          `the remote's ${resource} pages link back to a page already read; the walk stopped`
        );
      followed.add(page.next);
      phase.next = page.next;
      await save();
    }
    await table.removeUnseen(resource, phase.startedAt);
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
      if (stopped) throw new WalkStoppedError();
      const current = running.get(resource);
      if (current) {
        if (current.startedAt > notBefore) return current.promise;
        await current.promise.catch(() => undefined);
        continue;
      }
      const s = await load();
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
    await Promise.allSettled([full, ...[...running.values()].map((r) => r.promise)]);
    await saving;
  };

  return {
    walkAll,
    walkResource,
    progress,
    start,
    stop,
    isRunning: () => Boolean(full),
  };
}

export type InventoryWalk = ReturnType<typeof createInventoryWalk>;
export type { InventoryProgress };
