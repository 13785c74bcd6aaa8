/**
 * One push: re-read the entry as it is now, map it, skip it when its payload hash is unchanged,
 * else create, update or delete the remote object (create.ts, remove.ts) and record the
 * sync state. A create whose answer was lost is looked up in the inventory (recovery.ts) before it
 * is sent again; media bytes are read from the upload provider (payload.ts).
 */
export { createPusher } from './pusher';
export type { PushResult } from './context';
