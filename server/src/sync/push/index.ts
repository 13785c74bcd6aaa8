export { createPusher, type Pusher } from './pusher';
export type { PushDeps, PushResult } from './context';
export { idsInErrors } from './membership';
