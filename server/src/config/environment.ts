import type { PushEnvironment, PushTarget } from '../../../shared/contracts/environment';
import type { ResourceKind } from '../remote/types';
import type { PluginConfig } from './types';

export const environmentName = () => process.env.NODE_ENV || 'development';

/** `pushIn` unset: every environment pushes; set: only those it names (a staging copy of production must not write to its account). */
export function pushEnvironment(config: Pick<PluginConfig, 'pushIn'>): PushEnvironment {
  const name = environmentName();
  const pushIn = config.pushIn ?? null;
  return { name, pushIn, pushing: pushIn === null || pushIn.includes(name) };
}

export function pushTarget(credentials: {
  baseUrl?: string | null;
  clientId?: string | null;
}): PushTarget {
  const host = (credentials.baseUrl ? URL.parse(credentials.baseUrl)?.host : null) ?? null;
  // Only the end of the id: enough to tell two accounts apart, short enough for a banner or a screenshot.
  return { host, clientIdLast4: credentials.clientId ? credentials.clientId.slice(-4) : null };
}

/** Why this instance may not write to the remote (pushes, a repair's deletes), or null if it may. */
export function pushRefusal(config: Pick<PluginConfig, 'pushIn' | 'syncEnabled'>): string | null {
  const env = pushEnvironment(config);
  if (!env.pushing) return `environment "${env.name}" is not in pushIn (${env.pushIn!.join(', ')})`;
  if (!config.syncEnabled) return 'syncEnabled is false';
  return null;
}

/** The page showing a remote object, from the config's template for its resource; null without one. */
export function viewUrlOf(
  config: Pick<PluginConfig, 'viewUrl'>,
  resource: ResourceKind | string,
  remoteId: number | string | null | undefined
): string | null {
  const template = config.viewUrl?.[resource as ResourceKind];
  if (!template || remoteId == null) return null;
  return template.split('{id}').join(encodeURIComponent(String(remoteId)));
}
