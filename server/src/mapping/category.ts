import { collectProblems } from './errors';
import type { Built } from './pinpoint';
import type { EntryReader } from './reader';
import { categoryPayload } from '../remote/payloads';
import type { CategoryRequest } from '../remote/types';

export async function buildCategory(r: EntryReader): Promise<Built<CategoryRequest>> {
  const c: CategoryRequest = {};
  await collectProblems([
    () => {
      c.name = r.requiredText('name');
    },
    async () => {
      c.image_file = await r.media('image', 'image_file');
    },
  ]);
  return { payload: categoryPayload(c) };
}
