import { normalizeSource, pathTo, tryResolvePath } from './paths';
import { datesSpecOf } from './dates';
import { tagKeyFor } from './tags';
import type { Mapping, SchemaModel, StrapiSchemaLookup } from './types';

/** Every path a mapping reads (dates and tag keys spelled out) that fits the schema. */
function* resolvedPaths(mapping: Mapping, getModel: StrapiSchemaLookup) {
  const resolve = (path: string) => tryResolvePath(mapping.contentType, path, getModel);
  const fields = mapping.fields as unknown as Record<string, unknown>;
  for (const [field, source] of Object.entries(fields)) {
    if (source == null) continue;
    const paths: string[] = [];
    if (field === 'dates') {
      const { path, start, end } = datesSpecOf(source);
      paths.push(
        ...(path === undefined ? [start, end] : [path, `${path}.${start}`, `${path}.${end}`])
      );
    } else {
      const { path } = normalizeSource(source);
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

const POPULATED = new Set(['relation', 'component', 'media', 'dynamiczone']);
const SYSTEM_RELATIONS = new Set(['localizations', 'createdBy', 'updatedBy']);

interface PopNode {
  kind: 'component' | 'relation' | 'media';
  fields: Set<string>;
  children: Map<string, PopNode>;
}

/** Whether i18n localizes a content type (Strapi types the plugins' options as unknown records). */
export const isLocalizedModel = (model: { pluginOptions?: object } | undefined): boolean =>
  (model?.pluginOptions as SchemaModel['pluginOptions'])?.i18n?.localized === true;

// Strapi 5 has a `locale` attribute on every content type, but refuses it in `fields` unless the type is localized.
export const isLocalized = (uid: string | undefined, getModel: StrapiSchemaLookup): boolean =>
  !!uid && isLocalizedModel(getModel(uid));

function render(children: Map<string, PopNode>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const name of [...children.keys()].sort()) {
    const node = children.get(name) as PopNode;
    // Media never has children here: the walk stops at a media step.
    const nested = node.children.size > 0 ? { populate: render(node.children) } : undefined;
    out[name] =
      node.kind === 'relation' ? { fields: [...node.fields].sort(), ...nested } : (nested ?? true);
  }
  return out;
}

/**
 * The `populate` of `strapi.documents(uid).findOne` that loads exactly what the field map reads:
 * relations limited to the fields read plus documentId/locale, never whole related entries.
 */
export function populateFor(mapping: Mapping, getModel: StrapiSchemaLookup) {
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
        node = { kind: step.kind, fields: new Set(), children: new Map() };
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
    for (const [name, attr] of Object.entries(attributes))
      if (!(name in out) && !SYSTEM_RELATIONS.has(name) && POPULATED.has(attr?.type))
        out[name] = true;
  }
  return out;
}

/** Content types the mapping reads through relations (every hop): their changes re-queue its entries. */
export function relationTargets(mapping: Mapping, getModel: StrapiSchemaLookup) {
  const out = new Map<string, { field: string; path: string; target: string }>();
  for (const { field, resolved } of resolvedPaths(mapping, getModel)) {
    resolved.steps.forEach((step, i) => {
      const path = pathTo(resolved.steps, i);
      const key = `${field}\u0000${path}`;
      if (step.kind === 'relation' && step.target && !out.has(key))
        out.set(key, { field, path, target: step.target });
    });
  }
  return [...out.values()];
}
