import { mapEntry, MappingError, type UpsertOutcome } from '../../server/src/mapping';
import type { Mapping } from '../../server/src/config/types';
import { context, file, mappingA, modelsA, modelsB, PNG } from './mapping-fixtures';

describe('category', () => {
  it('model A: label + glyph image', async () => {
    const mapping = mappingA.icon;
    const out = (await mapEntry(
      mapping,
      {
        documentId: 'i1',
        label: ' Cup ',
        glyph: file('cup', { ext: '.svg', mime: 'image/svg+xml' }),
      },
      context(modelsA)
    )) as UpsertOutcome;
    expect(out).toEqual({
      action: 'upsert',
      resource: 'category',
      payload: {
        name: 'Cup',
        image_file: { content: PNG.toString('base64'), name: 'cup.svg', type: 'image/svg+xml' },
      },
      refs: [],
      unresolved: [],
    });
  });

  it('model B: title + picture; a missing picture is omitted; a number-typed name is text', async () => {
    const mapping: Mapping = {
      contentType: 'api::pin-type.pin-type',
      resource: 'category',
      fields: { name: 'code', image: 'picture' },
    };
    const out = (await mapEntry(
      mapping,
      { documentId: 't1', code: 42, picture: null },
      context(modelsB)
    )) as UpsertOutcome;
    expect(out.payload).toEqual({ name: '42' });
  });

  it('refuses an empty name', async () => {
    const mapping: Mapping = {
      contentType: 'api::icon.icon',
      resource: 'category',
      fields: { name: 'label' },
    };
    await expect(mapEntry(mapping, { label: null }, context(modelsA))).rejects.toThrow(
      MappingError
    );
  });
});

describe('list', () => {
  it('model A: name, text intro, pinpoints as members (unsynced ones do not block)', async () => {
    const mapping = mappingA.tour;
    const entry = {
      documentId: 't1',
      name: 'Old port',
      intro: 'Walk <here>',
      stops: [
        { documentId: 'p2' },
        { documentId: 'p1' },
        { documentId: 'p3' },
        { documentId: 'p1' },
      ],
    };
    const out = (await mapEntry(
      mapping,
      entry,
      context(modelsA, { p1: 30, p2: 10 })
    )) as UpsertOutcome;
    expect(out.payload).toEqual({ name: 'Old port', description: '<p>Walk &lt;here&gt;</p>' });
    expect(out.members).toEqual([10, 30]);
    expect(out.refs.map((r) => r.documentId)).toEqual(['p2', 'p1', 'p3']);
    expect(out.unresolved).toEqual([
      {
        contentType: 'api::place.place',
        documentId: 'p3',
        locale: null,
        role: 'member',
        blocking: false,
      },
    ]);
  });

  it('model B: blocks description and venues', async () => {
    const mapping: Mapping = {
      contentType: 'api::collection.collection',
      resource: 'list',
      fields: { name: 'label', description: 'about', pinpoints: 'venues' },
    };
    const entry = {
      documentId: 'c1',
      label: 'Best of',
      about: [{ type: 'heading', level: 2, children: [{ type: 'text', text: 'Top' }] }],
      venues: [{ documentId: 'v1' }],
    };
    const out = (await mapEntry(mapping, entry, context(modelsB, { v1: 5 }))) as UpsertOutcome;
    expect(out.payload).toEqual({ name: 'Best of', description: '<h2>Top</h2>' });
    expect(out.members).toEqual([5]);
  });

  it('only contract fields leave, whatever a transform adds', async () => {
    const mapping = {
      contentType: 'api::tour.tour',
      resource: 'list',
      fields: { name: 'name' },
      transform: (e) => ({ ...e, id: 99, pinpoints: [1, 2], secret: 'x' }),
    } as Mapping;
    const out = (await mapEntry(mapping, { name: 'T' }, context(modelsA))) as UpsertOutcome;
    expect(Object.keys(out.payload)).toEqual(['name']);
  });
});
