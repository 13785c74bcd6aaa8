import type { Core } from '@strapi/strapi';
import { createHash } from 'node:crypto';
import type { Lease } from '../shared/lease';
import { failureOf } from '../shared/db-error';
import type { InventoryWalk } from './walk';

/**
 * Which account a set of credentials names: the base URL and the client id (a new secret for the
 * same client is the same account). Hashed, so the stored progress names no credential.
 */
export const accountKey = (baseUrl: string, clientId: string) =>
  createHash('sha256')
    .update(`${baseUrl.trim().replace(/\/+$/, '')}\n${clientId.trim()}`)
    .digest('hex')
    .slice(0, 32);

/** Long enough for a walk of a big account; a holder that dies lets the next boot take it. */
const HOLD_MS = 30 * 60_000;

export interface AccountWatchDeps {
  strapi: Core.Strapi;
  walk: Pick<
    InventoryWalk,
    'account' | 'forget' | 'setAccount' | 'walkAll' | 'lastCompleteAt' | 'interrupted' | 'isRunning'
  >;
  /** the account the saved credentials name, null while they are incomplete */
  current: () => Promise<string | null>;
  /** whether this instance talks to the remote by itself (sync on, a pushing environment) */
  canRun: () => Promise<boolean>;
  /** `walkOnLink` */
  enabled: () => boolean;
  /** one instance walks when several share the database */
  lease: Pick<Lease, 'ensure' | 'hold' | 'release'>;
}

/**
 * The account the inventory describes. When the credentials name another one, what is held is
 * dropped; when an account is linked and was never walked, one instance walks it in the
 * background (behind the pushes), so that a lost create reads the end of that walk instead of
 * walking the whole account while the entry waits, and existing content can be linked. A walk
 * that was interrupted resumes the same way.
 */
export function createAccountWatch(deps: AccountWatchDeps) {
  const { strapi } = deps;
  let checking: Promise<void> | undefined;

  /** Drops another account's inventory; true when the current account is known. */
  const reconcile = async (): Promise<boolean> => {
    const account = await deps.current();
    if (!account) return false;
    const known = await deps.walk.account();
    if (known && known !== account) {
      strapi.log.warn(
        '[location-content] the credentials name another account than the inventory describes: that inventory is dropped. Entries already pushed keep the remote ids of the previous account, and their next pushes go to those ids on this one.'
      );
      await deps.walk.forget(account);
    } else if (!known) {
      // An inventory kept before the account was: it was walked with these credentials.
      await deps.walk.setAccount(account);
    }
    return true;
  };

  /**
   * By one instance (the lease) when several share the database: a walk that a stop or a failure
   * interrupted resumes; an account this instance pushes to and that was never walked is walked.
   */
  const walkIfNeeded = async () => {
    if (deps.walk.isRunning()) return;
    const resume = await deps.walk.interrupted();
    const never =
      !resume &&
      (await deps.walk.lastCompleteAt()) === null &&
      deps.enabled() &&
      (await deps.canRun());
    if (!resume && !never) return;
    await deps.lease.ensure();
    if (!(await deps.lease.hold(HOLD_MS))) return;
    strapi.log.info(
      resume
        ? '[location-content] the inventory walk goes on from the last page it reached, in the background'
        : '[location-content] walking the linked account into the inventory, in the background behind the pushes'
    );
    // A walk that fails or stops has said so (and resumes at the next boot); the lease goes either way.
    deps.walk
      .walkAll()
      .catch(() => undefined)
      .then(() => deps.lease.release())
      .catch(() => undefined);
  };

  /** At boot and after each change of the credentials; one check at a time. */
  const check = (): Promise<void> =>
    (checking ??= (async () => {
      try {
        // Without credentials there is no account to walk: the check comes again when they are saved.
        if (await reconcile()) await walkIfNeeded();
      } catch (err) {
        strapi.log.warn(
          `[location-content] could not check which account the inventory describes: ${failureOf(err)}`
        );
      } finally {
        checking = undefined;
      }
    })());

  return { check };
}

export type AccountWatch = ReturnType<typeof createAccountWatch>;
