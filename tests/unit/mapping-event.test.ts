import { mapEntry, MappingError, type UpsertOutcome } from '../../server/src/mapping';
import type { EventRequest } from '../../server/src/remote/types';
import type { Mapping } from '../../server/src/config/types';
import { context, file, mappingA, modelsA, modelsB, PNG } from './mapping-fixtures';

const mappingError = async (promise: Promise<unknown>): Promise<MappingError> => {
  try {
    await promise;
  } catch (err) {
    if (err instanceof MappingError) return err;
    throw err;
  }
  throw new Error('expected a MappingError');
};

describe('event (model A: repeatable component slots with custom keys)', () => {
  const mapping = mappingA.happening;
  const happening = (over: Record<string, unknown> = {}) => ({
    documentId: 'h1',
    locale: 'fr',
    title: 'Concert',
    summary: 'Line one\nline _two_',
    slots: [
      { id: 1, from: '2018-02-16T21:00:00+01:00', to: '2018-02-16T23:30:00.123456+01:00' },
      { id: 2, from: '2024-05-01', to: null },
      { id: 3, from: new Date(Date.UTC(2024, 5, 1, 8)), to: '2024-06-01T10:00:00Z' },
    ],
    place: { documentId: 'p1', locale: 'fr' },
    ...over,
  });

  it('sends dates as ms UTC, date-only at midnight UTC, missing end = start', async () => {
    const out = (await mapEntry(
      mapping,
      happening(),
      context(modelsA, { p1: 501 })
    )) as UpsertOutcome;
    expect(out.payload).toEqual({
      name: 'Concert',
      description: '<p>Line one<br />\nline <em>two</em></p>',
      dates: [
        { start: '2018-02-16T20:00:00.000Z', end: '2018-02-16T22:30:00.123Z' },
        { start: '2024-05-01T00:00:00.000Z', end: '2024-05-01T00:00:00.000Z' },
        { start: '2024-06-01T08:00:00.000Z', end: '2024-06-01T10:00:00.000Z' },
      ],
      pinpoint: 501,
    });
    expect(out.refs).toEqual([
      { contentType: 'api::place.place', documentId: 'p1', locale: 'fr', role: 'pinpoint' },
    ]);
    expect(out.unresolved).toEqual([]);
  });

  it('a pinpoint not synced yet blocks the push', async () => {
    const out = (await mapEntry(mapping, happening(), context(modelsA))) as UpsertOutcome;
    expect('pinpoint' in out.payload).toBe(false);
    expect(out.unresolved).toEqual([
      {
        contentType: 'api::place.place',
        documentId: 'p1',
        locale: 'fr',
        role: 'pinpoint',
        blocking: true,
      },
    ]);
  });

  it('refuses an event without pinpoint', async () => {
    const err = await mappingError(mapEntry(mapping, happening({ place: null }), context(modelsA)));
    expect(err.message).toMatch(/^pinpoint: no related entry; the remote needs the pinpoint/);
  });

  it('names the index of an end before its start, and of an invalid date', async () => {
    const err = await mappingError(
      mapEntry(
        mapping,
        happening({
          slots: [
            { from: '2024-01-01T10:00:00Z', to: '2024-01-01T11:00:00Z' },
            { from: '2024-01-02T00:00:00Z', to: '2024-01-01T00:00:00Z' },
            { from: '2024-02-30', to: null },
            { from: null, to: '2024-01-01' },
          ],
        }),
        context(modelsA, { p1: 1 })
      )
    );
    expect(err.problems).toEqual([
      {
        field: 'dates[1]',
        reason: 'end 2024-01-01T00:00:00.000Z is before start 2024-01-02T00:00:00.000Z',
      },
      { field: 'dates[2]', reason: expect.stringMatching(/^"2024-02-30" is not a date/) },
      { field: 'dates[3]', reason: "no start at 'from'" },
    ]);
  });

  it('refuses an event without dates (the remote requires them)', async () => {
    const err = await mappingError(
      mapEntry(mapping, happening({ slots: [] }), context(modelsA, { p1: 1 }))
    );
    expect(err.message).toBe("dates: no dates at 'slots'; the remote needs at least one");
  });

  it('default start/end keys for a plain path', async () => {
    const m = { ...mapping, fields: { ...mapping.fields, dates: 'slots' } } as Mapping;
    const out = (await mapEntry(
      m,
      happening({
        slots: [{ start: '2024-01-01T10:00:00-05:00', end: '2024-01-01T12:00:00-05:00' }],
      }),
      context(modelsA, { p1: 1 })
    )) as UpsertOutcome;
    expect((out.payload as EventRequest).dates).toEqual([
      { start: '2024-01-01T15:00:00.000Z', end: '2024-01-01T17:00:00.000Z' },
    ]);
  });

  it('a to-many relation for the pinpoint is refused at map time when it holds several', async () => {
    const m = { ...mapping, fields: { ...mapping.fields, pinpoint: 'places' } } as Mapping;
    const err = await mappingError(
      mapEntry(
        m,
        happening({ places: [{ documentId: 'a' }, { documentId: 'b' }] }),
        context(modelsA)
      )
    );
    expect(err.message).toBe("pinpoint: 'places' gives 2 related entries, one is needed");
  });
});

describe('event (model B: start/end fields on the entry, JSON dates, media, tags)', () => {
  const base = {
    name: 'headline',
    description: 'notes',
    pinpoint: 'venue',
    tags: 'topics',
    media: 'venue.gallery',
    media_credits: 'venue.heading',
  };
  const show = (over: Record<string, unknown> = {}) => ({
    documentId: 's1',
    headline: ' Hamlet ',
    notes: 'Act 1 <b>&</b> 2\n\nSecond paragraph',
    startsAt: '2025-03-01T19:30:00.000Z',
    endsAt: '2025-03-01T22:00:00.000Z',
    day: '2025-03-02',
    times: [{ start: '2025-03-03T19:00:00+02:00' }, '2025-03-04'],
    topics: ['drama', 'drama', ' classic '],
    venue: {
      documentId: 'v1',
      heading: 'Théâtre',
      gallery: [file('stage.webp', { mime: undefined })],
    },
    ...over,
  });

  it('two date fields of the entry make one range', async () => {
    const mapping = {
      contentType: 'api::show.show',
      resource: 'event',
      fields: { ...base, dates: { start: 'startsAt', end: 'endsAt' } },
    } as Mapping;
    const out = (await mapEntry(mapping, show(), context(modelsB, { v1: 77 }))) as UpsertOutcome;
    expect(out.payload).toEqual({
      name: 'Hamlet',
      description: '<p>Act 1 &lt;b&gt;&amp;&lt;/b&gt; 2</p><p>Second paragraph</p>',
      dates: [{ start: '2025-03-01T19:30:00.000Z', end: '2025-03-01T22:00:00.000Z' }],
      pinpoint: 77,
      tags: ['drama', 'classic'],
      media_file: { content: PNG.toString('base64'), name: 'stage.webp', type: 'image/webp' },
      media_credits: 'Théâtre',
    });
  });

  it('a single date field is one range with end = start', async () => {
    const mapping = {
      contentType: 'api::show.show',
      resource: 'event',
      fields: { ...base, dates: 'day' },
    } as Mapping;
    const out = (await mapEntry(mapping, show(), context(modelsB, { v1: 77 }))) as UpsertOutcome;
    expect((out.payload as EventRequest).dates).toEqual([
      { start: '2025-03-02T00:00:00.000Z', end: '2025-03-02T00:00:00.000Z' },
    ]);
  });

  it('a JSON array may mix range objects and plain dates', async () => {
    const mapping = {
      contentType: 'api::show.show',
      resource: 'event',
      fields: { ...base, dates: 'times' },
    } as Mapping;
    const out = (await mapEntry(mapping, show(), context(modelsB, { v1: 77 }))) as UpsertOutcome;
    expect((out.payload as EventRequest).dates).toEqual([
      { start: '2025-03-03T17:00:00.000Z', end: '2025-03-03T17:00:00.000Z' },
      { start: '2025-03-04T00:00:00.000Z', end: '2025-03-04T00:00:00.000Z' },
    ]);
  });

  it('no start on the entry: no dates', async () => {
    const mapping = {
      contentType: 'api::show.show',
      resource: 'event',
      fields: { ...base, dates: { start: 'startsAt', end: 'endsAt' } },
    } as Mapping;
    const err = await mappingError(
      mapEntry(mapping, show({ startsAt: null }), context(modelsB, { v1: 77 }))
    );
    expect(err.message).toBe("dates: no dates at 'startsAt'; the remote needs at least one");
  });
});
