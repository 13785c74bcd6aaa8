/**
 * Bad input from a seeded random generator, mixed with good entries: missing, out-of-range and
 * NaN coordinates, huge strings, reversed, missing and unreadable dates, media that is not an
 * image or is too large, HTML with scripts, emoji and right-to-left text.
 * Each bad entry ends failed with a reason an editor can read; every good entry syncs (scripts
 * gone, emoji and RTL text intact); the worker never crashes and keeps syncing afterwards.
 */
jest.setTimeout(240_000);
import type { UID } from '@strapi/strapi';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startApp, stopApp, type TestApp } from '../helpers/strapi';
import { blocks, uploadImage } from '../helpers/content';
import { docs, HAPPENING, ICON, PLACE, setPluginConfig, TOUR, uploadNoise } from '../helpers/sync';

const MAX_MEDIA = 8 * 1024;
const MAX_BODY = 256 * 1024;

let app: TestApp;
const unhandled: unknown[] = [];
const onUnhandled = (err: unknown) => unhandled.push(err);

beforeAll(async () => {
  process.on('unhandledRejection', onUnhandled);
  app = await startApp({
    emulator: { maxBodyBytes: MAX_BODY, requestLogSize: 20_000 },
    patchConfig: (config) => {
      const lc = config['location-content'].config;
      lc.maxMediaBytes = MAX_MEDIA;
      lc.retry = { baseMs: 20, maxMs: 200, maxAttempts: 3 };
      return config;
    },
  });
});

afterAll(async () => {
  process.off('unhandledRejection', onUnhandled);
  await stopApp(app);
});

/** mulberry32: the same entries on every run. */
function prng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (lo: number, hi: number) => lo + Math.floor(next() * (hi - lo + 1)),
    pick: <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)],
  };
}

const EMOJI = ['🏛️', '🎡', '👩🏽‍🚀', '🇫🇷', '🍕', '🧗‍♀️'];
const RTL = ['متحف اللوفر', 'שוק הכרמל', 'کتابخانه ملی', 'مقهى‎ النخيل'];
const SCRIPT = '<script>alert("pwned")</script>';
const ACTIVE_HTML =
  /<\s*(script|iframe|object|embed)\b|<[^>]*\son[a-z]+\s*=|<[^>]*(href|src)\s*=\s*["']?\s*javascript:/i;

type Expect = { ok: true } | { ok: false; reason: RegExp };
interface Case {
  kind: string;
  uid: string;
  documentId: string;
  name: string;
  expect: Expect;
}

const PLACE_KINDS = [
  'good',
  'emoji-rtl',
  'script-in-body',
  'no-geo',
  'lat-out-of-range',
  'lng-out-of-range',
  'nan-lat',
  'huge-body',
  'cover-too-large',
] as const;
const HAPPENING_KINDS = [
  'good',
  'script-in-description',
  'reversed-dates',
  'no-dates',
  'unreadable-date',
] as const;
const TOUR_KINDS = ['good-markdown-with-script', 'emoji-rtl'] as const;
const ICON_KINDS = ['good-glyph', 'glyph-not-an-image'] as const;

async function uploadFile(name: string, mimetype: string, bytes: Buffer) {
  const filepath = path.join(await fs.mkdtemp(path.join(os.tmpdir(), 'lc-bad-')), name);
  await fs.writeFile(filepath, bytes);
  const [file] = await app.strapi
    .plugin('upload')
    .service('upload')
    .upload({
      data: { fileInfo: { name } },
      files: { filepath, originalFilename: name, mimetype, size: bytes.length },
    });
  return file;
}

/** Writes a value behind Strapi's back into the published version's component row (what a bad import or migration leaves). */
async function corruptComponent(
  uid: UID.ContentType,
  documentId: string,
  field: string,
  column: string,
  value: unknown
) {
  const { strapi } = app;
  type Component = { id: number };
  const row: Record<string, Component | Component[]> = await strapi.db
    .query(uid)
    .findOne({ where: { documentId, publishedAt: { $notNull: true } }, populate: [field] });
  const held = row[field];
  const component = Array.isArray(held) ? held[0] : held;
  const componentUid = (strapi.getModel(uid).attributes[field] as { component: UID.Component })
    .component;
  await strapi.db
    .connection(strapi.db.metadata.get(componentUid).tableName)
    .where({ id: component.id })
    .update({ [column]: value });
}

test('a seeded stream of malformed entries: bad ones fail readably, good ones sync intact, the worker lives on', async () => {
  const { strapi, emulator } = app;
  const rnd = prng(0x5eed);
  const cases: Case[] = [];
  const add = (c: Case) => cases.push(c);
  // Entries reach the worker in their final form: queued while sync is off, pushed once all are made.
  setPluginConfig(strapi, 'syncEnabled', false);

  const { file: smallCover } = await uploadImage(strapi, 'small.png', 8);
  const { file: bigCover } = await uploadNoise(strapi, 'noise.png', 96);
  expect(bigCover.size * 1024).toBeGreaterThan(MAX_MEDIA);
  const text = await uploadFile('notes.txt', 'text/plain', Buffer.from('not an image at all\n'));

  // Icons (categories): the remote takes only images.
  for (const kind of ICON_KINDS) {
    const label = `Icon ${kind} ${rnd.int(100, 999)}`;
    const icon = await docs(strapi, ICON).create({
      data: { label, glyph: kind === 'good-glyph' ? smallCover.id : text.id },
    });
    add({
      kind: `icon:${kind}`,
      uid: ICON,
      documentId: icon.documentId,
      name: label,
      expect: kind === 'good-glyph' ? { ok: true } : { ok: false, reason: /image/i },
    });
  }

  // Places: every kind once, then a random mix.
  const placeKinds = [...PLACE_KINDS, ...Array.from({ length: 30 }, () => rnd.pick(PLACE_KINDS))];
  for (const [i, kind] of placeKinds.entries()) {
    let title = `Place ${i} ${kind}`;
    const data: Record<string, unknown> = {
      address: `${i} Fuzz Road`,
      geo: { lat: rnd.int(-8900, 8900) / 100, lng: rnd.int(-17900, 17900) / 100 },
    };
    let expectation: Expect = { ok: true };
    let corrupt: (() => Promise<void>) | undefined;
    switch (kind) {
      case 'emoji-rtl':
        title = `${rnd.pick(EMOJI)} ${rnd.pick(RTL)} ${i} ${rnd.pick(EMOJI)}`;
        break;
      case 'script-in-body':
        data.body = blocks(`Before ${SCRIPT} after <img src=x onerror=alert(1)> ${i}`);
        break;
      case 'no-geo':
        data.geo = null;
        expectation = { ok: false, reason: /latitude/ };
        break;
      case 'lat-out-of-range':
        data.geo = { lat: (rnd.pick([1, -1]) * rnd.int(9001, 100000)) / 100, lng: 1 };
        expectation = { ok: false, reason: /outside \[-90, 90\]/ };
        break;
      case 'lng-out-of-range':
        data.geo = { lat: 1, lng: (rnd.pick([1, -1]) * rnd.int(18001, 100000)) / 100 };
        expectation = { ok: false, reason: /outside \[-180, 180\]/ };
        break;
      case 'nan-lat':
        expectation = { ok: false, reason: /lat|number/i };
        corrupt = () => corruptComponent(PLACE, doc.documentId, 'geo', 'lat', 'NaN');
        break;
      case 'huge-body':
        data.body = blocks('x'.repeat(MAX_BODY + rnd.int(1, 50_000)));
        expectation = { ok: false, reason: /large|413/i };
        break;
      case 'cover-too-large':
        data.cover = bigCover.id;
        expectation = { ok: false, reason: /the limit is 8 KB/ };
        break;
      default:
        data.cover = rnd.next() < 0.3 ? smallCover.id : undefined;
    }
    const doc = await docs(strapi, PLACE).create({ data: { title, ...data } });
    await docs(strapi, PLACE).publish({ documentId: doc.documentId });
    if (corrupt) await corrupt();
    add({
      kind: `place:${kind}`,
      uid: PLACE,
      documentId: doc.documentId,
      name: title,
      expect: expectation,
    });
  }

  // Happenings at a good place.
  const anchor = cases.find((c) => c.kind === 'place:good')!;
  const happeningKinds = [
    ...HAPPENING_KINDS,
    ...Array.from({ length: 10 }, () => rnd.pick(HAPPENING_KINDS)),
  ];
  for (const [i, kind] of happeningKinds.entries()) {
    const day = String(rnd.int(1, 28)).padStart(2, '0');
    const title = `Happening ${i} ${kind}`;
    const data: Record<string, unknown> = {
      place: anchor.documentId,
      slots: [{ from: `2026-09-${day}T10:00:00Z`, to: `2026-09-${day}T12:00:00Z` }],
    };
    let expectation: Expect = { ok: true };
    let corrupt: (() => Promise<void>) | undefined;
    if (kind === 'script-in-description')
      data.description = `Line ${i}\n${SCRIPT}\n<iframe src="https://example.com"></iframe>`;
    if (kind === 'reversed-dates') {
      data.slots = [{ from: `2026-09-${day}T12:00:00Z`, to: `2026-09-${day}T10:00:00Z` }];
      expectation = { ok: false, reason: /before start/ };
    }
    if (kind === 'no-dates') {
      data.slots = [];
      expectation = { ok: false, reason: /date/i };
    }
    if (kind === 'unreadable-date') {
      expectation = { ok: false, reason: /date|from/i };
      corrupt = () =>
        corruptComponent(HAPPENING, doc.documentId, 'slots', 'from', 'the day after tomorrow');
    }
    const doc = await docs(strapi, HAPPENING).create({ data: { title, ...data } });
    await docs(strapi, HAPPENING).publish({ documentId: doc.documentId });
    if (corrupt) await corrupt();
    add({
      kind: `happening:${kind}`,
      uid: HAPPENING,
      documentId: doc.documentId,
      name: title,
      expect: expectation,
    });
  }

  // Tours: Markdown with raw HTML and a javascript: link; names in emoji and RTL.
  for (const [i, kind] of TOUR_KINDS.entries()) {
    const name = kind === 'emoji-rtl' ? `${rnd.pick(RTL)} ${rnd.pick(EMOJI)} ${i}` : `Tour ${i}`;
    const description = `# Walk ${i}\n\n${SCRIPT}\n\n[click](javascript:alert(1)) and <a href="javascript:alert(2)">this</a> **bold**`;
    const doc = await docs(strapi, TOUR).create({
      data: { name, description, stops: [anchor.documentId] },
    });
    await docs(strapi, TOUR).publish({ documentId: doc.documentId });
    add({
      kind: `tour:${kind}`,
      uid: TOUR,
      documentId: doc.documentId,
      name,
      expect: { ok: true },
    });
  }

  setPluginConfig(strapi, 'syncEnabled', true);
  await app.sync().pushMany(cases.map((c) => ({ contentType: c.uid, documentId: c.documentId })));
  await app.sync().idle({ timeoutMs: 180_000 });

  const remote = emulator.state();
  const problems: string[] = [];
  for (const c of cases) {
    const s = await app.sync().stateOf({ contentType: c.uid, documentId: c.documentId });
    if (c.expect.ok) {
      if (s?.status !== 'synced') {
        problems.push(`${c.kind} ${c.name}: expected synced, got ${s?.status} (${s?.lastError})`);
        continue;
      }
      const kind = {
        [PLACE]: 'pinpoints',
        [HAPPENING]: 'events',
        [ICON]: 'categories',
        [TOUR]: 'lists',
      }[c.uid] as 'pinpoints';
      const object = (
        remote[kind] as Array<{ id: number; name: string; description?: string }>
      ).find((o) => o.id === s.remoteId);
      // Emoji, RTL marks and combining sequences arrive as they were typed.
      if (object?.name !== c.name)
        problems.push(
          `${c.kind}: remote name ${JSON.stringify(object?.name)} instead of ${JSON.stringify(c.name)}`
        );
      // Escaped text (&lt;script&gt;) is inert; a real tag, handler or javascript: link is not.
      const description = String(object?.description ?? '');
      if (ACTIVE_HTML.test(description))
        problems.push(`${c.kind}: active HTML reached the remote: ${description.slice(0, 300)}`);
    } else {
      const reason = s?.lastError ?? '';
      if (s?.status !== 'failed')
        problems.push(`${c.kind} ${c.name}: expected failed, got ${s?.status} (${reason})`);
      else if (!c.expect.reason.test(reason))
        problems.push(
          `${c.kind}: reason ${JSON.stringify(reason)} does not match ${c.expect.reason}`
        );
      // Readable: words, not a dump.
      if (
        reason.length > 1_500 ||
        /\[object Object\]|\bundefined\b|\n\s+at |xxxxxxxxxx/.test(reason)
      )
        problems.push(`${c.kind}: unreadable reason ${JSON.stringify(reason.slice(0, 300))}`);
      if (s?.remoteId != null && c.uid !== ICON)
        problems.push(`${c.kind}: a bad entry has a remote object ${s.remoteId}`);
    }
  }
  expect(problems).toEqual([]);

  // Scripts were not just dropped silently with their surroundings: the text around them arrived.
  const scripted = cases.find((c) => c.kind === 'place:script-in-body')!;
  const scriptedState = await app
    .sync()
    .stateOf({ contentType: PLACE, documentId: scripted.documentId });
  expect(remote.pinpoints.find((p) => p.id === scriptedState!.remoteId)!.description).toMatch(
    /Before[\s\S]*after/
  );
  const tour = cases.find((c) => c.kind === 'tour:good-markdown-with-script')!;
  const tourState = await app.sync().stateOf({ contentType: TOUR, documentId: tour.documentId });
  expect(remote.lists.find((l) => l.id === tourState!.remoteId)!.description).toMatch(
    /<strong>bold<\/strong>/
  );

  // The worker lives on: a new good entry syncs, the status report works, nothing went unhandled.
  const after = await docs(strapi, PLACE).create({
    data: { title: 'After the storm', geo: { lat: 1, lng: 1 } },
  });
  await docs(strapi, PLACE).publish({ documentId: after.documentId });
  await app.sync().idle();
  expect(
    await app.sync().stateOf({ contentType: PLACE, documentId: after.documentId })
  ).toMatchObject({ status: 'synced' });
  const report = await app.sync().status();
  expect(report.counts.failed).toBe(cases.filter((c) => !c.expect.ok).length);
  expect(unhandled).toEqual([]);
  expect(app.logs.filter((l) => /could not record|worker:/.test(l))).toEqual([]);
});

/**
 * A Place cover that is not an image (a PDF: the field allows images only, but the document
 * service does not enforce allowedTypes) must not go online as the pinpoint's media.
 */
test('a cover that is not an image fails with a readable reason instead of going online', async () => {
  const { strapi } = app;
  const pdf = await uploadFile(
    'leaflet.pdf',
    'application/pdf',
    Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n')
  );
  const doc = await docs(strapi, PLACE).create({
    data: { title: 'Leaflet as a cover', geo: { lat: 2, lng: 2 }, cover: pdf.id },
  });
  await docs(strapi, PLACE).publish({ documentId: doc.documentId });
  await app.sync().idle();
  const s = await app.sync().stateOf({ contentType: PLACE, documentId: doc.documentId });
  expect(s).toMatchObject({ status: 'failed' });
  expect(s!.lastError).toMatch(/leaflet\.pdf.*image/i);
});
