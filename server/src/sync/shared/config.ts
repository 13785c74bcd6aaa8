import type { Core } from '@strapi/strapi';
import type { PluginConfig } from '../../config/types';
import { PLUGIN_ID } from '../../permissions';

/** The plugin's configuration, read at each use: tests and scripts change it at run time. */
export const pluginConfig = (strapi: Core.Strapi) =>
  strapi.config.get(`plugin::${PLUGIN_ID}`) as PluginConfig;
