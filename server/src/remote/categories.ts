import type { Api } from './http';
import { fetchPage, items, listPages } from './pagination';
import { categoryPayload } from './payloads';
import { readCategory } from './readers';
import { getOne, itemPath, sendOne, withKnownId } from './resource';
import type { Category, CategoryRequest, Page } from './types';

const PATH = '/v3.0/categories';

/** The contract lists no delete for categories, so none is offered. */
export interface CategoriesApi {
  list(): AsyncGenerator<Category, void, undefined>;
  listPages(): AsyncGenerator<Page<Category>, void, undefined>;
  /** One page: the first, or the one at a `next` link kept from an earlier page. */
  page(from?: { link?: string }): Promise<Page<Category>>;
  get(id: number): Promise<Category>;
  create(input: CategoryRequest): Promise<Category>;
  update(id: number, input: CategoryRequest): Promise<Category>;
}

export function createCategoriesApi(api: Api): CategoriesApi {
  const pages = () => listPages(api, PATH, undefined, readCategory);
  return {
    listPages: pages,
    page: (from = {}) => fetchPage(api, PATH, undefined, readCategory, from.link),
    list: () => items(pages()),
    get: async (id) =>
      getOne(api, itemPath(PATH, id, 'category id'), withKnownId(id, readCategory)),
    create: async (input) => sendOne(api, 'POST', PATH, categoryPayload(input), readCategory),
    update: async (id, input) =>
      sendOne(
        api,
        'PUT',
        itemPath(PATH, id, 'category id'),
        categoryPayload(input),
        withKnownId(id, readCategory)
      ),
  };
}
