import type { Core } from '@strapi/strapi';
import { createDocumentMiddleware } from '../../server/src/sync/outbox/middleware';
import type { EnqueueItem } from '../../server/src/sync/outbox';
import type { SchemaModel } from '../../server/src/mapping/types';

const ICON = 'api::icon.icon';
const PLACE = 'api::place.place';
const models: Record<string, Pick<SchemaModel, 'options' | 'pluginOptions'>> = {
  [ICON]: { options: { draftAndPublish: false } },
  [PLACE]: { options: { draftAndPublish: true }, pluginOptions: { i18n: { localized: true } } },
};

/** A middleware on a fake Strapi; `trx` simulates the caller's open transaction. */
function setup() {
  const recorded: EnqueueItem[][] = [];
  const errors: string[] = [];
  const state = { inTrx: false, commitCallbacks: [] as Array<() => void> };
  const strapi = {
    getModel: (uid: string) => models[uid],
    log: { error: (m: string) => errors.push(m) },
    db: {
      inTransaction: () => state.inTrx,
      transaction: async (cb: (trx: { onCommit: (f: () => void) => void }) => unknown) =>
        cb({ onCommit: (f: () => void) => state.commitCallbacks.push(f) }),
    },
    plugin: () => ({ service: () => ({ getDefaultLocale: async () => 'en' }) }),
  };
  const mw = createDocumentMiddleware({
    // The parts of Strapi the middleware reads, not every member Core.Strapi lists.
    strapi: strapi as unknown as Core.Strapi,
    resourceOf: (uid) => (uid === ICON ? 'category' : uid === PLACE ? 'pinpoint' : undefined),
    isRead: () => false,
    settle: () => ({ settleMs: 300, maxWaitMs: 5000 }),
    localesOf: async () => ['en', 'fr'],
    record: (items) => {
      recorded.push(items);
    },
  });
  return { mw, recorded, errors, state };
}

describe('document middleware', () => {
  it("hands the intent over before the caller resumes, and gives the caller Strapi's own promise", async () => {
    const { mw, recorded } = setup();
    const done = Promise.resolve({ documentId: 'd1' });
    const returned = mw(
      { uid: ICON, action: 'update', params: { documentId: 'd1', data: {} } },
      () => done
    );
    expect(returned).toBe(done);
    await returned;
    expect(recorded).toEqual([
      [
        expect.objectContaining({
          contentType: ICON,
          documentId: 'd1',
          locale: '',
          resource: 'category',
          reason: 'update',
        }),
      ],
    ]);
  });

  it('takes the documentId of a create from its result', async () => {
    const { mw, recorded } = setup();
    await mw({ uid: ICON, action: 'create', params: { data: {} } }, async () => ({
      documentId: 'new',
    }));
    expect(recorded[0][0].documentId).toBe('new');
  });

  it('records nothing for a failed change, and the caller sees the failure', async () => {
    const { mw, recorded } = setup();
    await expect(
      mw({ uid: ICON, action: 'update', params: { documentId: 'd1' } }, async () =>
        Promise.reject(new Error('validation'))
      )
    ).rejects.toThrow('validation');
    await new Promise((r) => setImmediate(r));
    expect(recorded).toEqual([]);
  });

  it('ignores reads, draft saves and types it does not follow', async () => {
    const { mw, recorded } = setup();
    await mw({ uid: ICON, action: 'findOne', params: { documentId: 'd1' } }, async () => ({
      documentId: 'd1',
    }));
    await mw(
      { uid: PLACE, action: 'update', params: { documentId: 'p1', locale: 'en' } },
      async () => ({ documentId: 'p1' })
    );
    await mw(
      { uid: 'api::other.other', action: 'update', params: { documentId: 'o1' } },
      async () => ({ documentId: 'o1' })
    );
    expect(recorded).toEqual([]);
  });

  it('looks up the default locale, and every locale for "*", before the caller resumes', async () => {
    const { mw, recorded } = setup();
    await mw({ uid: PLACE, action: 'publish', params: { documentId: 'p1' } }, async () => ({
      documentId: 'p1',
    }));
    expect(recorded[0].map((i) => i.locale)).toEqual(['en']);
    await mw(
      { uid: PLACE, action: 'unpublish', params: { documentId: 'p1', locale: '*' } },
      async () => ({ documentId: 'p1' })
    );
    expect(recorded[1].map((i) => i.locale)).toEqual(['en', 'fr']);
    await mw(
      { uid: PLACE, action: 'publish', params: { documentId: 'p1', locale: 'fr' } },
      async () => ({ documentId: 'p1' })
    );
    expect(recorded[2].map((i) => i.locale)).toEqual(['fr']);
  });

  it("inside the caller's transaction, records only once it commits", async () => {
    const { mw, recorded, state } = setup();
    state.inTrx = true;
    await mw({ uid: ICON, action: 'update', params: { documentId: 'd1' } }, async () => ({
      documentId: 'd1',
    }));
    expect(recorded).toEqual([]);
    expect(state.commitCallbacks).toHaveLength(1);
    state.commitCallbacks[0]();
    await new Promise((r) => setImmediate(r));
    expect(recorded).toHaveLength(1);
  });

  it('never fails the save when recording throws', async () => {
    const errors: string[] = [];
    const mw = createDocumentMiddleware({
      strapi: {
        getModel: () => models[ICON],
        log: { error: (m: string) => errors.push(m) },
        db: { inTransaction: () => false },
      } as unknown as Core.Strapi,
      resourceOf: () => 'category',
      isRead: () => false,
      settle: () => ({ settleMs: 300, maxWaitMs: 5000 }),
      localesOf: async () => [],
      record: () => {
        throw new Error('boom');
      },
    });
    await expect(
      mw({ uid: ICON, action: 'update', params: { documentId: 'd1' } }, async () => ({
        documentId: 'd1',
      }))
    ).resolves.toEqual({ documentId: 'd1' });
    expect(errors[0]).toMatch(/boom/);
  });
});
