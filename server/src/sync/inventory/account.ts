import type { Core } from '@strapi/strapi';
import { createHash } from 'node:crypto';
import { getService } from '../../utils';
import { pluginConfig } from '../shared/config';
import { createLease } from '../shared/lease';
import { failureOf } from '../shared/db-error';
import type { InventoryWalk } from './walk';

/** The account credentials name: base URL and client id (a new secret is the same account), hashed. */
export const accountKey = (baseUrl: string, clientId: string) =>
  createHash('sha256')
    .update(`${baseUrl.trim().replace(/\/+$/, '')}\n${clientId.trim()}`)
    .digest('hex')
    .slice(0, 32);

/** Long enough for a walk of a big account; a holder that dies lets the next boot take it. */
const HOLD_MS = 30 * 60_000;

/**
 * The account the inventory describes: another one's inventory is dropped; one never walked (or a
 * walk interrupted) is walked by one instance in the background, so that a lost create reads the
 * end of that walk instead of walking the whole account while the entry waits.
 */
export function createAccountWatch(strapi: Core.Strapi, walk: InventoryWalk) {
  const settings = () => getService('settings', { strapi });
  // One instance walks when several share the database.
  const lease = createLease(strapi, 'inventory');
  let checking: Promise<void> | undefined;

  /** Drops another account's inventory; true when the current account is known. */
  const reconcile = async (): Promise<boolean> => {
    const c = await settings().current();
    if (!settings().credentials.complete(c)) return false;
    const account = accountKey(c.baseUrl, c.clientId);
    const known = await walk.account();
    if (known && known !== account) {
      strapi.log.warn(
        '[location-content] the credentials name another account than the inventory describes: that inventory is dropped. Entries already pushed keep the remote ids of the previous account, and their next pushes go to those ids on this one.'
      );
      await walk.forget(account);
    } else if (!known) {
      // An inventory kept before the account was: it was walked with these credentials.
      await walk.setAccount(account);
    }
    return true;
  };

  const walkIfNeeded = async () => {
    if (walk.isRunning()) return;
    const resume = await walk.interrupted();
    const never =
      !resume &&
      (await walk.lastCompleteAt()) === null &&
      pluginConfig(strapi).walkOnLink !== false &&
      (await settings().canPush());
    if (!resume && !never) return;
    await lease.ensure();
    if (!(await lease.hold(HOLD_MS))) return;
    strapi.log.info(
      resume
        ? '[location-content] the inventory walk goes on from the last page it reached, in the background'
        : '[location-content] walking the linked account into the inventory, in the background behind the pushes'
    );
    // A walk that fails or stops has said so (and resumes at the next boot); the lease goes either way.
    walk
      .walkAll()
      .finally(() => lease.release())
      .catch(() => undefined);
  };

  /** At boot and after each change of the credentials; one check at a time. */
  const check = (): Promise<void> =>
    (checking ??= reconcile()
      // Without credentials there is no account to walk: the check comes again when they are saved.
      .then((known) => (known ? walkIfNeeded() : undefined))
      .catch((err) => {
        strapi.log.warn(
          `[location-content] could not check which account the inventory describes: ${failureOf(err)}`
        );
      })
      .finally(() => (checking = undefined)));

  return { check };
}
