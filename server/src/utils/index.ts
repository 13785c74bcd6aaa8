import type { Core } from '@strapi/strapi';
import type { SyncService } from '../../../shared/contracts/sync';
import { PLUGIN_ID } from '../permissions';
import type services from '../services';

type Built = { [K in keyof typeof services]: ReturnType<(typeof services)[K]> };

// The sync factory answers every call of the contract or this does not compile (resync is left
// out: the factory implements its two overloads as one signature).
type Conforming<T extends Omit<SyncService, 'resync'>> = T;

/** Each service as its factory makes it; the sync service's public calls typed by the contract first. */
export type Services = Omit<Built, 'sync'> & { sync: SyncService & Conforming<Built['sync']> };

/** The plugin's services, typed (Strapi's own `service()` answers `any`). */
export const getService = <K extends keyof Services>(
  name: K,
  { strapi }: { strapi: Core.Strapi }
): Services[K] => strapi.plugin(PLUGIN_ID).service(name) as Services[K];

/** The request context a controller gets: Koa's, with Strapi's additions (body parser, responses). */
export type Context = Parameters<Core.ControllerHandler>[0];
