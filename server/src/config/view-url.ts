import type { ResourceKind } from '../remote/types';
import type { PluginConfig } from './types';

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

export function viewUrlProblems(value: unknown, key: string): string[] {
  if (value === undefined) return [];
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return [
      `${key} must be an object such as { pinpoint: 'https://livemap.getwemap.com/#/pinpoints/{id}' }`,
    ];
  const problems: string[] = [];
  for (const [resource, template] of Object.entries(value)) {
    const at = `${key}.${resource}`;
    if (!['pinpoint', 'event', 'category', 'list'].includes(resource))
      problems.push(`${at}: ${resource} is not a resource (pinpoint, event, category, list)`);
    else if (typeof template !== 'string' || !template.includes('{id}'))
      problems.push(`${at} must be a URL template holding {id}, got ${JSON.stringify(template)}`);
    else if (!/^https?:\/\/[^/]/.test(template))
      problems.push(`${at} must be an http(s) URL, got ${JSON.stringify(template)}`);
  }
  return problems;
}
