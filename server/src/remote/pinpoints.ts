import type { Api } from './http';
import { fetchPage, items, listPages } from './pagination';
import { pinpointPayload } from './payloads';
import { readPinpoint } from './readers';
import { deleteOne, getOne, itemPath, sendOne, withKnownId } from './resource';
import type { Page, Pinpoint, PinpointRequest } from './types';

const PATH = '/v3.0/pinpoints';

export interface PinpointFilter {
  /** only pinpoints of this list */
  list?: number;
}

export interface PinpointsApi {
  list(filter?: PinpointFilter): AsyncGenerator<Pinpoint, void, undefined>;
  listPages(filter?: PinpointFilter): AsyncGenerator<Page<Pinpoint>, void, undefined>;
  /** One page: the first (with `filter`) or the one at a `next` link kept from an earlier page. */
  page(from?: { link?: string; filter?: PinpointFilter }): Promise<Page<Pinpoint>>;
  get(id: number): Promise<Pinpoint>;
  create(input: PinpointRequest): Promise<Pinpoint>;
  update(id: number, input: PinpointRequest): Promise<Pinpoint>;
  delete(id: number): Promise<void>;
}

export function createPinpointsApi(api: Api): PinpointsApi {
  const pages = (filter: PinpointFilter = {}) =>
    listPages(api, PATH, { list: filter.list }, readPinpoint);
  return {
    listPages: pages,
    page: (from = {}) => fetchPage(api, PATH, { list: from.filter?.list }, readPinpoint, from.link),
    list: (filter) => items(pages(filter)),
    get: async (id) =>
      getOne(api, itemPath(PATH, id, 'pinpoint id'), withKnownId(id, readPinpoint)),
    create: async (input) => sendOne(api, 'POST', PATH, pinpointPayload(input), readPinpoint),
    update: async (id, input) =>
      sendOne(
        api,
        'PUT',
        itemPath(PATH, id, 'pinpoint id'),
        pinpointPayload(input),
        withKnownId(id, readPinpoint)
      ),
    delete: async (id) => deleteOne(api, itemPath(PATH, id, 'pinpoint id')),
  };
}
