import type { Core, UID } from '@strapi/strapi';
import type { EmulatorHandle } from '../../emulator/src';
import type { EntryState } from '../../shared/contracts/sync';
import type { TestApp } from './strapi';

export const PLACE = 'api::place.place';
export const HAPPENING = 'api::happening.happening';
export const ICON = 'api::icon.icon';
export const TOUR = 'api::tour.tour';

export const docs = (strapi: Core.Strapi, uid: string) => strapi.documents(uid as UID.ContentType);

/** The sync state of one entry (locale: default locale of a localized type when omitted). */
export const stateOf = (app: TestApp, contentType: string, documentId: string, locale?: string) =>
  app.sync().stateOf({ contentType, documentId, locale });

const entryName = (contentType: string, documentId: string, locale?: string) =>
  `${contentType} ${documentId}${locale ? ` ${locale}` : ''}`;

/** The sync state of an entry that has one: the test fails here, naming the entry, when it has none. */
export async function stateIn(
  app: TestApp,
  contentType: string,
  documentId: string,
  locale?: string
): Promise<EntryState> {
  const s = await stateOf(app, contentType, documentId, locale);
  if (!s) throw new Error(`no sync state for ${entryName(contentType, documentId, locale)}`);
  return s;
}

/** The remote id of an entry that has one: the test fails here, naming the entry, when it has none. */
export async function remoteIdOf(
  app: TestApp,
  contentType: string,
  documentId: string,
  locale?: string
): Promise<number> {
  const { remoteId, status } = await stateIn(app, contentType, documentId, locale);
  if (remoteId == null)
    throw new Error(`no remote id for ${entryName(contentType, documentId, locale)} (${status})`);
  return remoteId;
}

/** The remote object the plugin holds for an entry, or undefined. */
export async function remoteOf(
  app: TestApp,
  contentType: string,
  documentId: string,
  locale?: string
) {
  const s = await stateOf(app, contentType, documentId, locale);
  if (s?.remoteId == null) return undefined;
  const remote = app.emulator.state() as any;
  const kind = { pinpoint: 'pinpoints', event: 'events', category: 'categories', list: 'lists' }[
    s.resource as string
  ] as string;
  return remote[kind].find((o: any) => o.id === s.remoteId);
}

const WRITE = new Set(['POST', 'PUT', 'DELETE', 'PATCH']);

/** API calls that change the remote (token requests excluded), optionally only those after `since` (a request seq). */
export function writes(emulator: EmulatorHandle, since = 0) {
  return emulator
    .requests({ since })
    .filter((r) => WRITE.has(r.method) && !r.path.startsWith('/v3.0/oauth2/'));
}

/** Sequence number of the last logged request: pass it to `writes` to count what happens afterwards. */
export const mark = (emulator: EmulatorHandle) => {
  const all = emulator.requests();
  return all.length ? all[all.length - 1].seq : 0;
};

/**
 * Polls until `check` returns a truthy value (no timed assertion: only a ceiling against hanging,
 * below jest's 120 s; 20 s was not enough for 300 imports on a machine at load 20). `everyMs`:
 * the pause between two checks, longer for a check that costs the app what it waits for.
 */
export async function until<T>(
  check: () => Promise<T> | T,
  what = 'condition',
  timeoutMs = 90_000,
  everyMs = 20
): Promise<NonNullable<T>> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value as NonNullable<T>;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

/**
 * Resolves after `n` more rounds of the worker, counted rather than slept for: each round (a poll
 * every second, or a wake) asks the settings service first whether this instance pushes.
 */
export async function workerRounds(app: TestApp, n = 3) {
  const rounds = jest.spyOn(app.strapi.plugin('location-content').service('settings'), 'canPush');
  try {
    await until(() => rounds.mock.calls.length >= n, `${n} rounds of the worker`);
  } finally {
    rounds.mockRestore();
  }
}

/** Everything on the emulator, with counts: handy in assertions on "no duplicates". */
export const counts = (emulator: EmulatorHandle) => {
  const s = emulator.state();
  return {
    pinpoints: s.pinpoints.length,
    events: s.events.length,
    categories: s.categories.length,
    lists: s.lists.length,
  };
};

/** Sets a plugin config value at runtime (the engine reads its config at each use). */
export const setPluginConfig = (strapi: Core.Strapi, path: string, value: unknown) =>
  strapi.config.set(`plugin::location-content.${path}`, value);

/** An image of random pixels (it does not compress): `size` x `size` pixels, uploaded through Strapi. */
export async function uploadNoise(strapi: Core.Strapi, name: string, size: number) {
  const sharp = require('sharp');
  const { promises: fs } = require('node:fs');
  const os = require('node:os');
  const path = require('node:path');
  const { randomBytes } = require('node:crypto');
  const buffer: Buffer = await sharp(randomBytes(size * size * 3), {
    raw: { width: size, height: size, channels: 3 },
  })
    .png()
    .toBuffer();
  const filepath = path.join(await fs.mkdtemp(path.join(os.tmpdir(), 'lc-noise-')), name);
  await fs.writeFile(filepath, buffer);
  const [file] = await strapi
    .plugin('upload')
    .service('upload')
    .upload({
      data: { fileInfo: { name } },
      files: { filepath, originalFilename: name, mimetype: 'image/png', size: buffer.length },
    });
  return { file, bytes: buffer };
}

/** A token of the emulator's client, to change the remote behind the plugin's back. */
export async function remoteCall(
  emulator: EmulatorHandle,
  method: string,
  path: string,
  body?: unknown
) {
  const { access_token } = emulator.issueToken();
  const res = await fetch(`${emulator.baseUrl}${path}`, {
    method,
    headers: {
      Authorization: `Bearer ${access_token}`,
      ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return {
    status: res.status,
    body: res.status === 204 ? undefined : await res.json().catch(() => undefined),
  };
}

/** A change made to the remote by another tool (the provider's portal, a script); throws unless it succeeds. */
export async function behindOurBack(
  emulator: EmulatorHandle,
  method: string,
  path: string,
  body?: unknown
) {
  const res = await remoteCall(emulator, method, path, body);
  if (res.status >= 400) throw new Error(`${method} ${path}: ${res.status}`);
  return res.body;
}
