import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Core } from '@strapi/strapi';

/** A real PNG (sharp refuses hand-made ones), uploaded through Strapi's upload service. */
export async function uploadImage(
  strapi: Core.Strapi,
  name = 'cover.png',
  size = 16,
  color = { r: 200, g: 30, b: 30 }
) {
  const sharp = require('sharp');
  const buffer: Buffer = await sharp({
    create: { width: size, height: size, channels: 3, background: color },
  })
    .png()
    .toBuffer();
  const filepath = path.join(await fs.mkdtemp(path.join(os.tmpdir(), 'lc-upload-')), name);
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

export const blocks = (text: string) => [{ type: 'paragraph', children: [{ type: 'text', text }] }];

export async function createIcon(strapi: Core.Strapi, label: string, glyph?: number) {
  return strapi
    .documents('api::icon.icon')
    .create({ data: { label, ...(glyph ? { glyph } : {}) } });
}

export async function createPlace(
  strapi: Core.Strapi,
  data: Record<string, unknown>,
  opts: { publish?: boolean; locale?: string } = {}
) {
  const doc = await strapi.documents('api::place.place').create({
    data: { title: 'Place', address: '1 Main St', geo: { lat: 48.85, lng: 2.35 }, ...data },
    ...(opts.locale ? { locale: opts.locale } : {}),
  });
  if (opts.publish !== false)
    await strapi
      .documents('api::place.place')
      .publish({ documentId: doc.documentId, ...(opts.locale ? { locale: opts.locale } : {}) });
  return doc;
}

export async function createHappening(
  strapi: Core.Strapi,
  data: Record<string, unknown>,
  opts: { publish?: boolean } = {}
) {
  const doc = await strapi
    .documents('api::happening.happening')
    .create({ data: { title: 'Happening', ...data } });
  if (opts.publish !== false)
    await strapi.documents('api::happening.happening').publish({ documentId: doc.documentId });
  return doc;
}

export async function createTour(
  strapi: Core.Strapi,
  data: Record<string, unknown>,
  opts: { publish?: boolean } = {}
) {
  const doc = await strapi.documents('api::tour.tour').create({ data: { name: 'Tour', ...data } });
  if (opts.publish !== false)
    await strapi.documents('api::tour.tour').publish({ documentId: doc.documentId });
  return doc;
}
