import type { Core } from '@strapi/strapi';
import { RemoteError, type RemoteClient } from '../../remote';
import type { Page, ResourceKind } from '../../remote/types';
import { PLUGIN_ID } from '../../permissions';
import { withRetries } from '../../remote/retry';
import { reasonOf } from '../shared/db-error';
import { pluginConfig } from '../shared/config';
import { api } from '../push/context';
import { identityOf } from './identity';
import type { InventoryTable } from './table';

/** One resource's walk: where it is, so that it resumes there after a failure or a restart. */
export interface PhaseState {
  /** When its first page request left (after its wait behind the pushes): every object created
   * before then is in the walk. NOT_SENT until then. */
  startedAt: number;
  /** the `next` link of the last page stored, as the remote gave it; null before the first page */
  next: string | null;
  pages: number;
  objects: number;
  /** distinct `count` values the pages gave: more than one, and objects may have slipped past */
  counts: number[];
  done: boolean;
  /** every id so far greater than the one before it (absent in walks stored before it was kept) */
  ascending?: boolean;
  maxId?: number;
  /** Set when a complete walk saw its ids in ascending order: the link its last page was read
   * from (null for the first) and the greatest id seen. `readTail` reads on from there. */
  tail?: TailMark | null;
}

export type TailMark = { link: string | null; maxId: number };

export interface Stored {
  walk: {
    startedAt: number;
    state: 'running' | 'done' | 'failed';
    error: string | null;
  } | null;
  phases: Partial<Record<ResourceKind, PhaseState>>;
  /** the list walk: lists with an id up to `listAfter` are done */
  members: {
    startedAt: number;
    listAfter: number;
    current: { listId: number; startedAt: number; next: string | null } | null;
    done: boolean;
  } | null;
  lastCompleteAt: number | null;
  /** the account the inventory describes (see `account.ts`); absent in inventories kept before it */
  account?: string | null;
}

/** An inventory that holds nothing: before the first walk, or after the account changed. */
export const emptyStored = (account: string | null = null): Stored => ({
  walk: null,
  phases: {},
  members: null,
  lastCompleteAt: null,
  account,
});

export const NOT_SENT = Number.MAX_SAFE_INTEGER;
/** Keeps in `run.startedAt` when its first page request left. */
export const sentMark = (run: { startedAt: number }) => (at: number) => {
  if (run.startedAt === NOT_SENT) run.startedAt = at;
};
const STORE_KEY = 'inventory';
const PAGE_ATTEMPTS = 8;

// Injected, not read from the services: the unit test of lost creates walks a fake remote and table.
export interface WalkDeps {
  strapi: Core.Strapi;
  table: InventoryTable;
  client: () => Promise<RemoteClient>;
  /** runs remote calls behind the pushes in the rate-limited queue */
  background: <T>(fn: () => Promise<T>, onSent?: (at: number) => void) => Promise<T>;
  /** pause before attempt `n` (1-based) of a page; the unit test of lost creates makes it 0 */
  pageRetryDelayMs?: (attempt: number) => number;
}

/** A stored link the remote no longer takes (an expired cursor, a changed format): walk again from the start. */
export const refused = (err: unknown) =>
  err instanceof RemoteError &&
  !err.retryable &&
  (err.status === 400 || err.status === 404 || err.status === 410);

export class WalkStoppedError extends Error {
  constructor() {
    super('the inventory walk stopped with Strapi; it resumes where it was at the next start');
    this.name = 'WalkStoppedError';
  }
}

export type RemotePage = Page<Record<string, unknown>>;

/** What the walk's parts share: its stored progress, its page reads, and whether Strapi stopped it. */
export function createWalkContext(deps: WalkDeps) {
  const { strapi } = deps;
  // A page is asked again sooner than a push is retried: it is cheap and safe to repeat.
  const delay =
    deps.pageRetryDelayMs ??
    ((attempt: number) => {
      const { retry } = pluginConfig(strapi);
      const ms = Math.min(retry.maxMs, 10_000, (retry.baseMs / 4) * 2 ** (attempt - 1));
      return ms * (0.5 + Math.random() / 2);
    });
  const store = () => strapi.store({ type: 'plugin', name: PLUGIN_ID });
  let stored: Stored | undefined;
  let readAt = 0;
  let saving: Promise<unknown> = Promise.resolve();
  let unsaved = 0;

  const read = async (): Promise<Stored> => ({
    ...emptyStored(),
    ...((await store().get({ key: STORE_KEY })) as Stored | null),
  });
  /** Nothing of this instance's own is under way or waiting to be written. */
  const quiet = () => !ctx.busy() && unsaved === 0;

  const ctx = {
    strapi,
    table: deps.table,
    stopped: false,
    /** whether this instance has a walk or a read under way (set by the walk) */
    busy: (): boolean => false,
    /** The stored progress, read again in place when this instance is quiet and last read it
     * over a second ago: another instance sharing the database may have walked since. */
    load: async () => {
      if (!stored) {
        const value = await read();
        stored ??= value;
        readAt = Date.now();
      } else if (quiet() && Date.now() - readAt > 1000) {
        readAt = Date.now();
        const value = await read();
        // Only if nothing started meanwhile: what is under way holds this object.
        if (quiet()) Object.assign(stored, value);
      }
      return stored;
    },
    /** Writes in order: each page's progress lands after the one before it. */
    save: () => {
      const snapshot = JSON.parse(JSON.stringify(stored));
      unsaved += 1;
      saving = saving
        .then(() => store().set({ key: STORE_KEY, value: snapshot }))
        .finally(() => (unsaved -= 1))
        .catch((err) =>
          strapi.log.warn(
            `[location-content] could not save the inventory walk's progress: ${reasonOf(err)}`
          )
        );
      return saving;
    },
    saved: () => saving,
    /** Stores the objects of a page as seen now. */
    store: (resource: ResourceKind, page: RemotePage) =>
      deps.table.upsertObjects(
        resource,
        page.results.map((o) => ({ id: Number(o.id), identity: identityOf(resource, o) })),
        Date.now()
      ),
    /** One page of `resource` (`link` null for the first), asked again on a transient failure. */
    pageOf: async (
      resource: ResourceKind,
      link: string | null,
      filter?: { list?: number },
      onSent?: (at: number) => void
    ): Promise<RemotePage> => {
      // Each API answers its own object type; the walk reads them all as records of fields.
      const pages = api(await deps.client(), resource) as unknown as {
        page(from: object): Promise<RemotePage>;
      };
      return withRetries(
        () => deps.background(() => pages.page({ link: link ?? undefined, filter }), onSent),
        {
          attempts: PAGE_ATTEMPTS,
          delayMs: delay,
          before: () => {
            if (ctx.stopped) throw new WalkStoppedError();
          },
        }
      );
    },
  };
  return ctx;
}

export type WalkContext = ReturnType<typeof createWalkContext>;
