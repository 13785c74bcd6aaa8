import type { Core } from '@strapi/strapi';
import type { PluginConfig } from '../../config/types';
import { PLUGIN_ID } from '../../permissions';

/** The plugin's configuration, read at each use: tests and scripts change it at run time. */
export const pluginConfig = (strapi: Core.Strapi) =>
  strapi.config.get(`plugin::${PLUGIN_ID}`) as PluginConfig;

/** How long an entry's saves settle before its push (an app's config may leave it out). */
export const coalesceOf = (strapi: Core.Strapi) =>
  pluginConfig(strapi).coalesce ?? { settleMs: 300, maxWaitMs: 5_000 };
