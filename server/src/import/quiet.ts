import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * Writes the import makes are not changes to push: the entry it creates is linked to the object
 * it came from, and its sync state is written by the import itself. The document middleware
 * records nothing for a write made inside `quietly`, so that a content type without draft &
 * publish does not push an entry the moment it is created (before its state says it is synced).
 */
const scope = new AsyncLocalStorage<true>();

export const quietly = <T>(fn: () => Promise<T>): Promise<T> => scope.run(true, fn);

export const isQuiet = (): boolean => scope.getStore() === true;
