import { readWith, type Api } from './http';
import { assertId, listPayload, membershipPayload } from './payloads';
import { readList, readMembership } from './readers';
import { createResourceApi, type ResourceApi } from './resource';
import type { ListRequest, MembershipResult, RemoteList } from './types';

const PATH = '/v3.0/lists';

export interface ListsApi extends ResourceApi<RemoteList, ListRequest> {
  /** POST /v3.0/lists/:id/pinpoints; `errors` is returned as received. */
  addPinpoints(listId: number, ids: readonly number[]): Promise<MembershipResult>;
  /** DELETE /v3.0/lists/:id/pinpoints; `errors` is returned as received. */
  removePinpoints(listId: number, ids: readonly number[]): Promise<MembershipResult>;
}

export function createListsApi(api: Api): ListsApi {
  const lists = createResourceApi(api, {
    path: PATH,
    what: 'list',
    payload: listPayload,
    read: readList,
  });

  const membership = async (method: 'POST' | 'DELETE', listId: number, ids: readonly number[]) => {
    const target = `${PATH}/${assertId(listId, 'list id')}/pinpoints`;
    const body = membershipPayload(ids);
    // Nothing to change: an empty array would only spend a call of the rate limit.
    if (body.length === 0) return { errors: [], total: 0 };
    return readWith(await api.request({ method, target, body }), readMembership);
  };

  return {
    ...lists,
    addPinpoints: async (listId, ids) => membership('POST', listId, ids),
    removePinpoints: async (listId, ids) => membership('DELETE', listId, ids),
  };
}
