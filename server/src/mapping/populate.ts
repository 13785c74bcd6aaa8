import { normalizeSource, tryResolvePath } from './paths';
import { datesSpecOf } from './dates';
import { tagKeyFor } from './tags';
import type { Mapping, StrapiSchemaLookup } from './types';

/** Fields whose path must end on a relation: the related entry's identity is what is read. */
export const RELATION_FIELDS: Record<string, string[]> = {
  pinpoint: ['category', 'lists'],
  event: ['pinpoint'],
  category: [],
  list: ['pinpoints'],
};

/**
 * Every path a mapping reads (dates and tag keys spelled out), resolved against the schema; the
 * paths that do not fit it are left out (the validator reports them).
 */
function* resolvedPaths(mapping: Mapping, getModel: StrapiSchemaLookup) {
  const resolve = (path: string) => tryResolvePath(mapping.contentType, path, getModel);
  const fields = (mapping.fields ?? {}) as unknown as Record<string, unknown>;
  for (const [field, source] of Object.entries(fields)) {
    if (source === undefined || source === null) continue;
    const paths: string[] = [];
    if (field === 'dates') {
      const spec = datesSpecOf(source);
      const prefix = spec.path === undefined ? '' : `${spec.path}.`;
      if (spec.path !== undefined) paths.push(spec.path);
      paths.push(`${prefix}${spec.start}`, `${prefix}${spec.end}`);
    } else {
      const { path } = normalizeSource(source as never);
      if (!path) continue;
      paths.push(path);
      const tags = field === 'tags' ? resolve(path) : undefined;
      const key = tags && tagKeyFor(tags, source, getModel);
      if (key && (tags.last.kind === 'relation' || tags.last.kind === 'component'))
        paths.push(`${path}.${key}`);
    }
    for (const resolved of paths.map(resolve)) if (resolved) yield { field, resolved };
  }
}

interface PopNode {
  kind: 'component' | 'relation' | 'media';
  target?: string;
  fields: Set<string>;
  children: Map<string, PopNode>;
}

export function isLocalized(uid: string | undefined, getModel: StrapiSchemaLookup): boolean {
  if (!uid) return false;
  const model = getModel(uid);
  // Strapi 5 has a `locale` attribute on every content type, but refuses it in `fields` unless the type is localized.
  return model?.pluginOptions?.i18n?.localized === true;
}

function render(children: Map<string, PopNode>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const name of [...children.keys()].sort()) {
    const node = children.get(name) as PopNode;
    if (node.kind === 'media') out[name] = true;
    else if (node.kind === 'component')
      out[name] = node.children.size === 0 ? true : { populate: render(node.children) };
    else {
      out[name] = {
        fields: [...node.fields].sort(),
        ...(node.children.size > 0 ? { populate: render(node.children) } : {}),
      };
    }
  }
  return out;
}

/**
 * The `populate` of `strapi.documents(uid).findOne` that loads exactly what the field map reads:
 * relations limited to the fields read plus documentId/locale, never whole related entries.
 */
export function populateFor(
  mapping: Mapping,
  getModel: StrapiSchemaLookup
): Record<string, unknown> {
  const root = new Map<string, PopNode>();
  for (const { resolved } of resolvedPaths(mapping, getModel)) {
    let level = root;
    let parent: PopNode | undefined;
    resolved.steps.forEach((step) => {
      if (step.kind === 'scalar' || step.kind === 'json' || step.kind === 'dynamiczone') {
        if (parent?.kind === 'relation') parent.fields.add(step.name);
        return;
      }
      if (parent?.kind === 'media') return;
      let node = level.get(step.name);
      if (!node) {
        node = { kind: step.kind, target: step.target, fields: new Set(), children: new Map() };
        level.set(step.name, node);
      }
      if (node.kind === 'relation') {
        node.fields.add('documentId');
        // The related entry's identity: its sync state is keyed on documentId and locale.
        if (isLocalized(step.target, getModel)) node.fields.add('locale');
      }
      parent = node;
      level = node.children;
    });
  }
  const out = render(root);
  if (mapping.transform) {
    // A transform may read any field, not only mapped ones: give it every relation, component and
    // media of the entry, one level deep (the mapped paths keep their deeper populate).
    const attributes = getModel(mapping.contentType)?.attributes ?? {};
    for (const [name, attr] of Object.entries(attributes)) {
      if (name in out || name === 'localizations' || name === 'createdBy' || name === 'updatedBy')
        continue;
      if (
        attr?.type === 'relation' ||
        attr?.type === 'component' ||
        attr?.type === 'media' ||
        attr?.type === 'dynamiczone'
      )
        out[name] = true;
    }
  }
  return out;
}

/**
 * Content types this mapping reads through relations (every hop), so that a change to one of
 * their entries re-queues the entries that use it.
 */
export function relationTargets(
  mapping: Mapping,
  getModel: StrapiSchemaLookup
): Array<{ field: string; path: string; target: string }> {
  const out: Array<{ field: string; path: string; target: string }> = [];
  const seen = new Set<string>();
  for (const { field, resolved } of resolvedPaths(mapping, getModel)) {
    resolved.steps.forEach((step, i) => {
      if (step.kind !== 'relation' || !step.target) return;
      const path = resolved.steps
        .slice(0, i + 1)
        .map((s) => s.name)
        .join('.');
      const key = `${field}\u0000${path}`;
      if (seen.has(key)) return;
      seen.add(key);
      out.push({ field, path, target: step.target });
    });
  }
  return out;
}
