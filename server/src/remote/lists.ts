import type { Api } from './http';
import { fetchPage, items, listPages } from './pagination';
import { listPayload, membershipPayload } from './payloads';
import { readList, readMembership } from './readers';
import { deleteOne, getOne, itemPath, readWith, sendOne, withKnownId } from './resource';
import type { ListRequest, MembershipResult, Page, RemoteList } from './types';

const PATH = '/v3.0/lists';

export interface ListsApi {
  list(): AsyncGenerator<RemoteList, void, undefined>;
  listPages(): AsyncGenerator<Page<RemoteList>, void, undefined>;
  /** One page: the first, or the one at a `next` link kept from an earlier page. */
  page(from?: { link?: string }): Promise<Page<RemoteList>>;
  get(id: number): Promise<RemoteList>;
  create(input: ListRequest): Promise<RemoteList>;
  update(id: number, input: ListRequest): Promise<RemoteList>;
  delete(id: number): Promise<void>;
  /** POST /v3.0/lists/:id/pinpoints; `errors` is returned as received. */
  addPinpoints(listId: number, ids: readonly number[]): Promise<MembershipResult>;
  /** DELETE /v3.0/lists/:id/pinpoints; `errors` is returned as received. */
  removePinpoints(listId: number, ids: readonly number[]): Promise<MembershipResult>;
}

export function createListsApi(api: Api): ListsApi {
  const pages = () => listPages(api, PATH, undefined, readList);

  const membership = async (method: 'POST' | 'DELETE', listId: number, ids: readonly number[]) => {
    const path = `${itemPath(PATH, listId, 'list id')}/pinpoints`;
    const body = membershipPayload(ids);
    // Nothing to change: an empty array would only spend a call of the rate limit.
    if (body.length === 0) return { errors: [], total: 0 };
    return readWith(await api.request({ method, target: path, body }), readMembership);
  };

  return {
    listPages: pages,
    page: (from = {}) => fetchPage(api, PATH, undefined, readList, from.link),
    list: () => items(pages()),
    get: async (id) => getOne(api, itemPath(PATH, id, 'list id'), withKnownId(id, readList)),
    create: async (input) => sendOne(api, 'POST', PATH, listPayload(input), readList),
    update: async (id, input) =>
      sendOne(
        api,
        'PUT',
        itemPath(PATH, id, 'list id'),
        listPayload(input),
        withKnownId(id, readList)
      ),
    delete: async (id) => deleteOne(api, itemPath(PATH, id, 'list id')),
    addPinpoints: async (listId, ids) => membership('POST', listId, ids),
    removePinpoints: async (listId, ids) => membership('DELETE', listId, ids),
  };
}
