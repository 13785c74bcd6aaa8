import { mapEntry, MappingError, type UpsertOutcome } from '../../server/src/mapping';
import type { PinpointRequest } from '../../server/src/remote/types';
import type { Mapping } from '../../server/src/config/types';
import { context, file, mappingA, modelsA, modelsB, PNG } from './mapping-fixtures';

const placeMapping = mappingA.place;

const place = (over: Record<string, unknown> = {}) => ({
  id: 12,
  documentId: 'p1',
  locale: 'en',
  title: '  Café du Port 🌊  ',
  body: [
    {
      type: 'paragraph',
      children: [
        { type: 'text', text: 'Open ' },
        { type: 'text', text: 'daily', bold: true },
      ],
    },
  ],
  address: ' 1 quai Nord ',
  geo: { id: 3, lat: '43.2965', lng: 5.3698 },
  keywords: [
    { id: 1, documentId: 'k1', name: 'coffee' },
    { id: 2, documentId: 'k2', name: ' sea ' },
    { id: 3, documentId: 'k3', name: 'coffee' },
  ],
  cover: file('port.png'),
  credits: '© Jo',
  icon: { id: 4, documentId: 'i1', locale: null, label: 'Cup' },
  tours: [
    { id: 5, documentId: 't1' },
    { id: 6, documentId: 't2' },
  ],
  ...over,
});

const upsert = async (
  mapping: Mapping,
  entry: Record<string, unknown>,
  ctx = context(modelsA, { i1: 31, t1: 72, t2: 71 })
) => (await mapEntry(mapping, entry, ctx)) as UpsertOutcome;

const mappingError = async (promise: Promise<unknown>): Promise<MappingError> => {
  try {
    await promise;
  } catch (err) {
    if (err instanceof MappingError) return err;
    throw err;
  }
  throw new Error('expected a MappingError');
};

describe('pinpoint (model A: places with component geo, blocks body, relations)', () => {
  it('maps every field the contract lists and nothing else', async () => {
    const out = await upsert(placeMapping, place());
    expect(out.action).toBe('upsert');
    expect(out.resource).toBe('pinpoint');
    expect(out.payload).toEqual({
      name: 'Café du Port 🌊',
      description: '<p>Open <strong>daily</strong></p>',
      address: '1 quai Nord',
      latitude: 43.2965,
      longitude: 5.3698,
      tags: ['coffee', 'sea'],
      media_file: { content: PNG.toString('base64'), name: 'port.png', type: 'image/png' },
      media_credits: '© Jo',
      category: 31,
    });
    expect(out.members).toEqual([71, 72]);
    expect(out.refs).toEqual([
      // Tags read through related keywords: a change of one of them must push this entry again.
      { contentType: 'api::keyword.keyword', documentId: 'k1', locale: null, role: 'read' },
      { contentType: 'api::keyword.keyword', documentId: 'k2', locale: null, role: 'read' },
      { contentType: 'api::keyword.keyword', documentId: 'k3', locale: null, role: 'read' },
      { contentType: 'api::icon.icon', documentId: 'i1', locale: null, role: 'category' },
      { contentType: 'api::tour.tour', documentId: 't1', locale: null, role: 'list' },
      { contentType: 'api::tour.tour', documentId: 't2', locale: null, role: 'list' },
    ]);
    expect(out.unresolved).toEqual([]);
  });

  it('keeps right-to-left text and emoji intact', async () => {
    const out = await upsert(placeMapping, place({ title: ' مقهى الميناء ☕ ' }));
    expect((out.payload as PinpointRequest).name).toBe('مقهى الميناء ☕');
  });

  it('refuses an empty name', async () => {
    const err = await mappingError(upsert(placeMapping, place({ title: '   ' })));
    expect(err.field).toBe('name');
    expect(err.message).toBe('name: empty field title; the remote needs a name');
  });

  it('names the missing coordinate and the field the editor fills in: attributes and the component', async () => {
    const err = await mappingError(upsert(placeMapping, place({ geo: { lat: null, lng: 5 } })));
    expect(err.field).toBe('latitude');
    expect(err.message).toBe('latitude: empty field geo (Geo point) › lat');
  });

  it('reports every problem of the entry at once', async () => {
    const err = await mappingError(upsert(placeMapping, place({ title: '', geo: null })));
    expect(err.problems.map((p) => p.field)).toEqual(['name', 'latitude', 'longitude']);
  });

  it.each([
    [{ lat: 91, lng: 0 }, 'latitude: 91 is outside [-90, 90]'],
    [{ lat: -90.5, lng: 0 }, 'latitude: -90.5 is outside [-90, 90]'],
    [{ lat: 0, lng: 180.01 }, 'longitude: 180.01 is outside [-180, 180]'],
    [{ lat: 'NaN', lng: 0 }, 'latitude: expected a number at \'geo.lat\', got "NaN"'],
    [{ lat: Infinity, lng: 0 }, "latitude: expected a finite number at 'geo.lat', got Infinity"],
    [{ lat: '43,29', lng: 0 }, 'latitude: expected a number at \'geo.lat\', got "43,29"'],
  ])('refuses out-of-range or non-numeric coordinates %j', async (geo, message) => {
    const err = await mappingError(upsert(placeMapping, place({ geo })));
    expect(err.message).toBe(message);
  });

  it('accepts the poles and the antimeridian', async () => {
    const out = await upsert(placeMapping, place({ geo: { lat: -90, lng: 180 } }));
    expect(out.payload).toMatchObject({ latitude: -90, longitude: 180 });
  });

  it('a category not synced yet blocks; lists not synced yet do not', async () => {
    const out = await upsert(placeMapping, place(), context(modelsA, { t1: 72 }));
    expect((out.payload as PinpointRequest).category).toBeUndefined();
    expect(out.members).toEqual([72]);
    expect(out.unresolved).toEqual([
      {
        contentType: 'api::icon.icon',
        documentId: 'i1',
        locale: null,
        role: 'category',
        blocking: true,
      },
      {
        contentType: 'api::tour.tour',
        documentId: 't2',
        locale: null,
        role: 'list',
        blocking: false,
      },
    ]);
  });

  it('omits category without a relation; an empty list relation gives no members', async () => {
    const out = await upsert(placeMapping, place({ icon: null, tours: [] }));
    expect('category' in out.payload).toBe(false);
    expect(out.members).toEqual([]);
  });

  it('has no members at all when lists are not mapped', async () => {
    const { lists, ...fields } = placeMapping.fields;
    void lists;
    const out = await upsert({ ...placeMapping, fields } as Mapping, place());
    expect(out.members).toBeUndefined();
  });

  it('sends cleared optional texts as empty and empty tags as [] (a merge PUT would keep stale values)', async () => {
    const out = await upsert(
      placeMapping,
      place({ body: null, address: null, credits: null, keywords: [] })
    );
    expect(out.payload).toMatchObject({
      description: '',
      address: '',
      media_credits: '',
      tags: [],
    });
  });

  it('omits media when there is none, and refuses one over the limit with sizes in words', async () => {
    const none = await upsert(placeMapping, place({ cover: null }));
    expect('media_file' in none.payload).toBe(false);

    const ctx = context(modelsA, { i1: 31 }, { maxMediaBytes: 5 * 1024 * 1024 });
    const err = await mappingError(
      upsert(placeMapping, place({ cover: file('cover.png', { size: 12595.2 }) }), ctx)
    );
    expect(err.message).toBe('media: cover.png is 12.3 MB, the limit is 5 MB');
    expect(ctx.reads).toEqual([]);
  });

  it('measures the bytes read when the stored size understates them', async () => {
    const ctx = context(
      modelsA,
      { i1: 31 },
      { maxMediaBytes: 10, readMedia: async () => Buffer.alloc(2048) }
    );
    const err = await mappingError(
      upsert(placeMapping, place({ cover: file('port.png', { size: undefined }) }), ctx)
    );
    expect(err.message).toBe('media: port.png is 2 KB, the limit is 10 bytes');
  });

  it("lets readMedia failures through untouched (retryable, not the editor's to fix)", async () => {
    const ctx = context(
      modelsA,
      { i1: 31 },
      {
        readMedia: async () => {
          throw new Error('ECONNRESET');
        },
      }
    );
    await expect(upsert(placeMapping, place(), ctx)).rejects.toThrow('ECONNRESET');
  });

  it('uses { path, default } when the value is empty', async () => {
    const mapping = {
      ...placeMapping,
      fields: {
        ...placeMapping.fields,
        address: { path: 'address', default: 'Marseille' },
        media_credits: { path: 'credits', default: 'CC-BY' },
      },
    } as Mapping;
    const out = await upsert(mapping, place({ address: '  ', credits: null }));
    expect(out.payload).toMatchObject({ address: 'Marseille', media_credits: 'CC-BY' });
  });

  it('runs transform on a copy first; null skips (remote object must not exist)', async () => {
    const entry = place();
    const mapping = {
      ...placeMapping,
      transform: (e) => {
        e.title = `${e.title.trim()} (closed)`;
        return e;
      },
    } as Mapping;
    const out = await upsert(mapping, entry);
    expect((out.payload as PinpointRequest).name).toBe('Café du Port 🌊 (closed)');
    expect(entry.title).toBe('  Café du Port 🌊  ');

    const skip = await mapEntry(
      { ...placeMapping, transform: async () => null } as Mapping,
      place(),
      context(modelsA)
    );
    expect(skip).toEqual({ action: 'skip', reason: "the mapping's transform returned null" });
  });

  it('reads keys a transform added even though the schema does not know them', async () => {
    const mapping = {
      ...placeMapping,
      fields: { ...placeMapping.fields, address: 'fullAddress' },
      transform: (e) => ({ ...e, fullAddress: `${e.address.trim()}, Marseille` }),
    } as Mapping;
    const out = await upsert(mapping, place());
    expect((out.payload as PinpointRequest).address).toBe('1 quai Nord, Marseille');
  });

  it('wraps a failing transform in a MappingError', async () => {
    const mapping = {
      ...placeMapping,
      transform: () => {
        throw new Error('boom');
      },
    } as Mapping;
    const err = await mappingError(upsert(mapping, place()));
    expect(err.message).toBe("transform: the mapping's transform failed: boom");
  });

  it('refuses a relation value that was not populated', async () => {
    const err = await mappingError(upsert(placeMapping, place({ icon: { count: 1 } })));
    expect(err.message).toMatch(/^category: expected a related entry with a documentId at 'icon'/);
  });

  it("takes a localized target's locale into the ref, and drops it for non-localized ones", async () => {
    const mapping: Mapping = {
      contentType: 'api::tour.tour',
      resource: 'list',
      fields: { name: 'name', pinpoints: 'stops' },
    };
    const out = await upsert(
      mapping,
      { name: 'T', stops: [{ documentId: 'p1', locale: 'fr' }] },
      context(modelsA, { p1: 9 })
    );
    expect(out.refs).toEqual([
      { contentType: 'api::place.place', documentId: 'p1', locale: 'fr', role: 'member' },
    ]);
    const cat = await upsert(placeMapping, place({ icon: { documentId: 'i1', locale: 'en' } }));
    expect(cat.refs.find((r) => r.role === 'category')).toEqual({
      contentType: 'api::icon.icon',
      documentId: 'i1',
      locale: null,
      role: 'category',
    });
    // One entry of a non-localized type read in two locales is one entry, not two.
    const twice = await upsert(
      placeMapping,
      place({
        icon: [
          { documentId: 'i1', locale: 'en' },
          { documentId: 'i1', locale: 'fr' },
        ],
      })
    );
    expect(twice.refs.filter((r) => r.role === 'category')).toHaveLength(1);
  });
});

describe('pinpoint (model B: venues with JSON GeoJSON, nested components, multiple media)', () => {
  const venueMapping: Mapping = {
    contentType: 'api::venue.venue',
    resource: 'pinpoint',
    fields: {
      name: 'heading',
      description: 'story',
      address: 'info.street',
      coordinates: 'location',
      tags: 'tagline',
      media: 'gallery',
      category: 'kind',
      lists: 'collections',
    },
  };
  const venue = (over: Record<string, unknown> = {}) => ({
    documentId: 'v1',
    heading: 'Théâtre',
    story: '# Programme\n\nA **great** place <script>alert(1)</script>',
    location: { type: 'Point', coordinates: [2.3522, 48.8566, 35] },
    info: {
      street: '2 rue X',
      position: { latitude: 1, longitude: 2, altitude: 3 },
      photo: file('inner.png'),
      labels: [],
    },
    tagline: 'music, theatre,, music ,\n dance',
    gallery: [file('first.jpg', { mime: 'image/jpeg' }), file('second.jpg')],
    kind: { documentId: 'k9' },
    collections: [{ documentId: 'c1', locale: 'en' }],
    ...over,
  });
  const ctxB = () => context(modelsB, { k9: 4, c1: 8 });

  it('reads GeoJSON lng-first with altitude, Markdown description, comma tags, first of multiple media', async () => {
    const out = (await mapEntry(venueMapping, venue(), ctxB())) as UpsertOutcome;
    expect(out.payload).toEqual({
      name: 'Théâtre',
      description: '<h1>Programme</h1>\n<p>A <strong>great</strong> place </p>',
      address: '2 rue X',
      latitude: 48.8566,
      longitude: 2.3522,
      altitude: 35,
      tags: ['music', 'theatre', 'dance'],
      media_file: { content: PNG.toString('base64'), name: 'first.jpg', type: 'image/jpeg' },
      category: 4,
    });
    expect(out.members).toEqual([8]);
    expect(out.refs.map((r) => [r.contentType, r.locale, r.role])).toEqual([
      ['api::pin-type.pin-type', null, 'category'],
      ['api::collection.collection', 'en', 'list'],
    ]);
  });

  it('reads a nested component position and an explicit altitude', async () => {
    const mapping = {
      ...venueMapping,
      fields: { name: 'heading', coordinates: 'info.position', altitude: 'info.position.altitude' },
    } as Mapping;
    const out = (await mapEntry(
      mapping,
      venue({ info: { position: { latitude: '10.5', longitude: '-20.25', altitude: '100' } } }),
      ctxB()
    )) as UpsertOutcome;
    expect(out.payload).toEqual({
      name: 'Théâtre',
      latitude: 10.5,
      longitude: -20.25,
      altitude: 100,
    });
  });

  it.each([
    [{ lat: 1, lng: 2 }, [1, 2]],
    [{ latitude: '1.5', longitude: '2.5' }, [1.5, 2.5]],
    [{ lat: 1, lon: 2 }, [1, 2]],
    [{ Lat: 1, Lng: 2 }, [1, 2]],
    ['{"lat": 3, "lng": 4}', [3, 4]],
    [{ type: 'Feature', geometry: { type: 'Point', coordinates: [6, 5] } }, [5, 6]],
  ])('accepts coordinates %j', async (location, [lat, lng]) => {
    const out = (await mapEntry(venueMapping, venue({ location }), ctxB())) as UpsertOutcome;
    expect(out.payload).toMatchObject({ latitude: lat, longitude: lng });
  });

  it.each([
    [[48.8, 2.3], /coordinates: 'location' holds a bare array \[48.8,2.3\], which is ambiguous/],
    [
      '48.8, 2.3',
      /coordinates: 'location' holds the text "48.8, 2.3"; a coordinate pair in text is ambiguous/,
    ],
    [{ x: 1, y: 2 }, /coordinates: no latitude\/longitude in the object at 'location'/],
    [{ lat: 1 }, /coordinates: no longitude in the object at 'location' \(found 'lat'\)/],
    [
      { type: 'Point', coordinates: [200, 10] },
      /coordinates: longitude 200 is outside \[-180, 180\]/,
    ],
    [null, /^coordinates: empty field location$/],
  ])('refuses coordinates %j', async (location, message) => {
    const err = await mappingError(mapEntry(venueMapping, venue({ location }), ctxB()));
    expect(err.message).toMatch(message);
  });

  it('tags from a relation inside a component use the first text attribute when the target has no name', async () => {
    const mapping = {
      ...venueMapping,
      fields: { ...venueMapping.fields, tags: 'info.labels' },
    } as Mapping;
    const out = (await mapEntry(
      mapping,
      venue({
        info: {
          street: 's',
          labels: [
            { documentId: 'l1', code: 'jazz', title: 'Jazz' },
            { documentId: 'l2', code: 'rock' },
          ],
        },
      }),
      ctxB()
    )) as UpsertOutcome;
    expect((out.payload as PinpointRequest).tags).toEqual(['jazz', 'rock']);
  });

  it('tags with an explicit key', async () => {
    const mapping = {
      ...venueMapping,
      fields: { ...venueMapping.fields, tags: { path: 'info.labels', key: 'title' } },
    } as Mapping;
    const out = (await mapEntry(
      mapping,
      venue({ info: { labels: [{ documentId: 'l1', code: 'jazz', title: ' Jazz ' }] } }),
      ctxB()
    )) as UpsertOutcome;
    expect((out.payload as PinpointRequest).tags).toEqual(['Jazz']);
  });

  it('tags from a JSON list of strings keep commas inside items', async () => {
    const mapping = {
      ...venueMapping,
      fields: { ...venueMapping.fields, tags: 'meta.tags' },
    } as Mapping;
    const out = (await mapEntry(
      mapping,
      venue({ meta: { tags: ['rock, pop', ' jazz', '', 'jazz', 7] } }),
      ctxB()
    )) as UpsertOutcome;
    expect((out.payload as PinpointRequest).tags).toEqual(['rock, pop', 'jazz', '7']);
  });

  it('a to-one category relation given several entries is refused', async () => {
    const err = await mappingError(
      mapEntry(venueMapping, venue({ kind: [{ documentId: 'a' }, { documentId: 'b' }] }), ctxB())
    );
    expect(err.message).toBe("category: 'kind' gives 2 related entries, one is needed");
  });
});
