import type { Api } from './http';
import { fetchPage, items, listPages } from './pagination';
import { eventPayload } from './payloads';
import { readEvent } from './readers';
import { deleteOne, getOne, itemPath, sendOne, withKnownId } from './resource';
import type { EventRequest, Page, RemoteEvent } from './types';

const PATH = '/v3.0/events';

export interface EventFilter {
  /** only events at this pinpoint */
  pinpoint?: number;
}

export interface EventsApi {
  list(filter?: EventFilter): AsyncGenerator<RemoteEvent, void, undefined>;
  listPages(filter?: EventFilter): AsyncGenerator<Page<RemoteEvent>, void, undefined>;
  /** One page: the first (with `filter`) or the one at a `next` link kept from an earlier page. */
  page(from?: { link?: string; filter?: EventFilter }): Promise<Page<RemoteEvent>>;
  get(id: number): Promise<RemoteEvent>;
  /** Dates are sent as ms-precision UTC whatever ISO 8601 form they come in. */
  create(input: EventRequest): Promise<RemoteEvent>;
  update(id: number, input: EventRequest): Promise<RemoteEvent>;
  delete(id: number): Promise<void>;
}

export function createEventsApi(api: Api): EventsApi {
  const pages = (filter: EventFilter = {}) =>
    listPages(api, PATH, { pinpoint: filter.pinpoint }, readEvent);
  return {
    listPages: pages,
    page: (from = {}) =>
      fetchPage(api, PATH, { pinpoint: from.filter?.pinpoint }, readEvent, from.link),
    list: (filter) => items(pages(filter)),
    get: async (id) => getOne(api, itemPath(PATH, id, 'event id'), withKnownId(id, readEvent)),
    create: async (input) => sendOne(api, 'POST', PATH, eventPayload(input), readEvent),
    update: async (id, input) =>
      sendOne(
        api,
        'PUT',
        itemPath(PATH, id, 'event id'),
        eventPayload(input),
        withKnownId(id, readEvent)
      ),
    delete: async (id) => deleteOne(api, itemPath(PATH, id, 'event id')),
  };
}
