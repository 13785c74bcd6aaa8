import { errors } from '@strapi/utils';
import type { Mapping } from '../config/types';
import type { ResourceKind } from '../remote/types';
import type { ImportInto } from '../../../shared/contracts/import';
import { ORDER } from './context';

/**
 * Which content type receives each resource's objects. Several active mappings may take one
 * resource (places and stands both pinpoints): the caller's choice wins, else the first of them
 * in the config's order; the dry run names both the choice and the candidates. A choice that no
 * active mapping backs is refused, never replaced by a guess.
 */

export type ImportTargets = Record<ResourceKind, Mapping | undefined>;

/** The content types whose active mapping takes `resource`, in the config's order. */
export const candidatesOf = (mappings: Mapping[], resource: ResourceKind): string[] =>
  mappings.filter((m) => m.resource === resource).map((m) => m.contentType);

export function resolveTargets(mappings: Mapping[], into?: ImportInto | null): ImportTargets {
  const chosen = (into ?? {}) as Record<string, unknown>;
  if (typeof chosen !== 'object' || Array.isArray(chosen))
    throw new errors.ValidationError(
      'into must be an object such as { pinpoint: "api::place.place" }'
    );
  for (const [resource, uid] of Object.entries(chosen)) {
    if (uid === undefined || uid === null) continue;
    if (!ORDER.includes(resource as ResourceKind))
      throw new errors.ValidationError(
        `into.${resource}: not a resource; the resources are ${ORDER.join(', ')}`
      );
    const candidates = candidatesOf(mappings, resource as ResourceKind);
    if (typeof uid !== 'string' || !candidates.includes(uid))
      throw new errors.ValidationError(
        `into.${resource}: ${JSON.stringify(uid)} has no active mapping of this resource; ${
          candidates.length
            ? `choose one of ${candidates.join(', ')}`
            : 'no active mapping takes it'
        }`
      );
  }
  const targets = {} as ImportTargets;
  for (const resource of ORDER) {
    const uid = chosen[resource];
    targets[resource] = mappings.find(
      (m) => m.resource === resource && (typeof uid !== 'string' || m.contentType === uid)
    );
  }
  return targets;
}
