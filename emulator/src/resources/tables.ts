/**
 * The four resource kinds seen through one shape, so that handlers are written once and stay
 * typed: each kind's records with the store's calls for them (create, update, render, delete).
 */
import { renderCategory, renderEvent, renderList, renderPinpoint } from '../render';
import type { Emulator } from '../server';
import type { CategoryRec, EventRec, ListRec, PinpointRec } from '../store';
import type { PutMode, ResourceKind } from '../types';
import type { Filters } from '../pagination';

/** What the resource handlers read of the emulator (cfg is re-read on every call: it changes). */
export type ResourceHost = Pick<Emulator, 'store' | 'cfg' | 'clock' | 'baseUrl' | 'paginator'>;

export type Fields = Record<string, unknown>;
export type Rendered = Record<string, unknown>;

export interface Table<R extends { id: number }> {
  records: Map<number, R>;
  /** The collection as GET lists it, ascending by id, narrowed by the kind's filter if any. */
  list(filters: Filters): R[];
  create(f: Fields): R;
  update(rec: R, f: Fields, mode: PutMode): void;
  render(rec: R): Rendered;
  /** null: the contract has no delete for the kind. */
  remove: ((id: number) => boolean) | null;
}

/**
 * Call `use` with the table of `kind`. The record type stays generic inside `use`, so a record
 * of one kind can only be handed back to that kind's calls.
 */
export function withTable<T>(
  host: ResourceHost,
  kind: ResourceKind,
  use: <R extends { id: number }>(table: Table<R>) => T
): T {
  const s = host.store;
  switch (kind) {
    case 'pinpoints':
      return use<PinpointRec>({
        records: s.pinpoints,
        list: (f) => (f.list !== undefined ? s.pinpointsOfList(f.list) : [...s.pinpoints.values()]),
        create: (f) => s.createPinpoint(f),
        update: (rec, f, mode) => s.updatePinpoint(rec, f, mode),
        render: (rec) => renderPinpoint(rec, host.cfg.extraFields),
        remove: (id) => s.deletePinpoint(id, host.cfg.pinpointDeleteTakesEvents),
      });
    case 'events':
      return use<EventRec>({
        records: s.events,
        list: (f) => {
          const all = [...s.events.values()];
          return f.pinpoint !== undefined ? all.filter((e) => e.pinpoint === f.pinpoint) : all;
        },
        create: (f) => s.createEvent(f),
        update: (rec, f, mode) => s.updateEvent(rec, f, mode),
        render: (rec) => renderEvent(rec, host.cfg.dateStyle),
        remove: (id) => s.deleteEvent(id),
      });
    case 'categories':
      return use<CategoryRec>({
        records: s.categories,
        list: () => [...s.categories.values()],
        create: (f) => s.createCategory(f),
        update: (rec, f, mode) => s.updateCategory(rec, f, mode),
        render: (rec) => renderCategory(rec),
        remove: null,
      });
    case 'lists':
      return use<ListRec>({
        records: s.lists,
        list: () => [...s.lists.values()],
        create: (f) => s.createList(f),
        update: (rec, f, mode) => s.updateList(rec, f, mode),
        render: (rec) => renderList(rec),
        remove: (id) => s.deleteList(id),
      });
  }
}
