import { refused, type RemotePage, type WalkContext } from './walk-context';

/** The members of every list held, through `?list=`. */
export const walkMembers = async (ctx: WalkContext, notBefore: number) => {
  const { table, pageOf, save } = ctx;
  const s = await ctx.load();
  let m = s.members;
  if (!m || m.startedAt <= notBefore || m.done)
    m = { startedAt: Date.now(), listAfter: 0, current: null, done: false };
  s.members = m;
  for (;;) {
    const lists = await table.names('list', m.listAfter, 50);
    if (!lists.length) break;
    for (const { remoteId: listId } of lists) {
      const cur =
        m.current?.listId === listId ? m.current : { listId, startedAt: Date.now(), next: null };
      m.current = cur;
      const followed = new Set<string>();
      for (;;) {
        let page: RemotePage;
        try {
          page = await pageOf('pinpoint', cur.next, { list: listId });
        } catch (err) {
          if (cur.next && refused(err)) {
            Object.assign(cur, { startedAt: Date.now(), next: null });
            followed.clear();
            continue;
          }
          // The list was deleted since it was seen: it has no members to keep.
          if (refused(err)) {
            await table.removeUnseenMembers(listId);
            break;
          }
          await save();
          throw err;
        }
        await table.upsertMembers(
          listId,
          page.results.map((p) => Number(p.id)),
          Date.now()
        );
        if (!page.next) {
          await table.removeUnseenMembers(listId, cur.startedAt);
          break;
        }
        if (followed.has(page.next))
          throw new Error(
            `the remote's pages of list ${listId} link back to a page already read; the walk stopped`
          );
        followed.add(page.next);
        cur.next = page.next;
        await save();
      }
      m.listAfter = listId;
      m.current = null;
      await save();
    }
  }
  await table.removeMembersOfMissingLists();
  m.done = true;
  await save();
};
