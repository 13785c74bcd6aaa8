/** One object of any kind: create, read, update (merge or replace), delete. */
import { asStored } from '../habits';
import { notFound } from '../http';
import type { ResourceKind } from '../types';
import { validateBody, type Mode, type ValidationContext } from '../validation';
import { withTable, type Fields, type Rendered, type ResourceHost } from './tables';

function validationContext(host: ResourceHost, mode: Mode): ValidationContext {
  return {
    mode,
    strict: host.cfg.strict,
    maxMediaBytes: host.cfg.maxMediaBytes,
    pinpointExists: (id) => host.store.pinpoints.has(id),
    categoryExists: (id) => host.store.categories.has(id),
  };
}

/** The body validated for `mode`, as the remote would store it. */
function storedFields(host: ResourceHost, kind: ResourceKind, body: unknown, mode: Mode): Fields {
  return asStored(kind, validateBody(kind, body, validationContext(host, mode)), host.cfg);
}

export function createObject(host: ResourceHost, kind: ResourceKind, body: unknown): Rendered {
  const f = storedFields(host, kind, body, 'create');
  return withTable(host, kind, (t) => t.render(t.create(f)));
}

export function readObject(host: ResourceHost, kind: ResourceKind, id: number): Rendered {
  return withTable(host, kind, (t) => {
    const rec = t.records.get(id);
    if (!rec) throw notFound();
    return t.render(rec);
  });
}

export function updateObject(
  host: ResourceHost,
  kind: ResourceKind,
  id: number,
  body: unknown
): Rendered {
  return withTable(host, kind, (t) => {
    // A missing object is a 404 before its body is judged.
    const rec = t.records.get(id);
    if (!rec) throw notFound();
    const mode = host.cfg.putMode;
    t.update(rec, storedFields(host, kind, body, mode), mode);
    return t.render(rec);
  });
}

export function deleteObject(host: ResourceHost, kind: ResourceKind, id: number): void {
  const ok = withTable(host, kind, (t) => (t.remove ? t.remove(id) : false));
  if (!ok) throw notFound();
}
