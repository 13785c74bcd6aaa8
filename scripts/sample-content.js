const { promises: fs } = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const ICONS = [
  { label: 'Museum', color: { r: 180, g: 40, b: 40 } },
  { label: 'Park', color: { r: 40, g: 150, b: 60 } },
  { label: 'Landmark', color: { r: 40, g: 80, b: 180 } },
];
const PLACES = [
  {
    title: 'Louvre Museum',
    icon: 'Museum',
    address: 'Rue de Rivoli, 75001 Paris',
    geo: { lat: 48.8606, lng: 2.3376 },
    keywords: ['art', 'museum'],
  },
  {
    title: "Musée d'Orsay",
    icon: 'Museum',
    address: "1 Rue de la Légion d'Honneur, 75007 Paris",
    geo: { lat: 48.86, lng: 2.3266 },
    keywords: ['art', 'impressionism'],
  },
  {
    title: 'Jardin du Luxembourg',
    icon: 'Park',
    address: '75006 Paris',
    geo: { lat: 48.8462, lng: 2.3372 },
    keywords: ['garden'],
  },
  {
    title: 'Eiffel Tower',
    icon: 'Landmark',
    address: 'Champ de Mars, 75007 Paris',
    geo: { lat: 48.8584, lng: 2.2945 },
    keywords: ['view', 'landmark'],
  },
  {
    title: 'Arc de Triomphe',
    icon: 'Landmark',
    address: 'Place Charles de Gaulle, 75008 Paris',
    geo: { lat: 48.8738, lng: 2.295 },
    keywords: ['landmark'],
  },
  {
    title: 'Parc des Buttes-Chaumont',
    icon: 'Park',
    address: '1 Rue Botzaris, 75019 Paris',
    geo: { lat: 48.8809, lng: 2.3828 },
    keywords: ['garden', 'view'],
  },
];

async function image(strapi, name, color) {
  const sharp = require('sharp');
  const bytes = await sharp({ create: { width: 64, height: 64, channels: 3, background: color } })
    .png()
    .toBuffer();
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'lc-demo-'));
  const filepath = path.join(dir, name);
  await fs.writeFile(filepath, bytes);
  const [file] = await strapi
    .plugin('upload')
    .service('upload')
    .upload({
      data: { fileInfo: { name, alternativeText: name } },
      files: { filepath, originalFilename: name, mimetype: 'image/png', size: bytes.length },
    });
  await fs.rm(dir, { recursive: true, force: true });
  return file;
}

const paragraph = (text) => [{ type: 'paragraph', children: [{ type: 'text', text }] }];
/** Creates the demo's icons, places, happenings and tours once; returns false when they exist. */
async function seedSampleContent(strapi) {
  if ((await strapi.documents('api::place.place').count({})) > 0) return false;
  const icons = {};
  for (const icon of ICONS) {
    const glyph = await image(strapi, `${icon.label.toLowerCase()}.png`, icon.color);
    const doc = await strapi
      .documents('api::icon.icon')
      .create({ data: { label: icon.label, glyph: glyph.id } });
    icons[icon.label] = doc.documentId;
  }
  const places = [];
  for (const p of PLACES) {
    const cover = await image(strapi, `${p.title.replace(/\W+/g, '-').toLowerCase()}.png`, {
      r: 90,
      g: 90,
      b: 120,
    });
    const doc = await strapi.documents('api::place.place').create({
      data: {
        title: p.title,
        body: paragraph(`${p.title}, one of the places of the demo tour.`),
        address: p.address,
        geo: p.geo,
        keywords: p.keywords,
        credits: '© Demo photos',
        cover: cover.id,
        icon: icons[p.icon],
      },
    });
    await strapi.documents('api::place.place').publish({ documentId: doc.documentId });
    places.push(doc.documentId);
  }
  // Deliberately incomplete: shows how a failed entry and its reason look in the admin.
  const broken = await strapi.documents('api::place.place').create({
    data: { title: 'Secret garden (no coordinates yet)', address: 'Somewhere in Paris' },
  });
  await strapi.documents('api::place.place').publish({ documentId: broken.documentId });
  const day = (d, h) => new Date(Date.UTC(2027, 5, d, h)).toISOString();
  const happenings = [
    {
      title: 'Night at the museum',
      description: 'Late opening with live music.',
      slots: [
        { from: day(5, 18), to: day(5, 22) },
        { from: day(12, 18), to: day(12, 22) },
      ],
      place: places[0],
    },
    {
      title: 'Picnic concert',
      description: 'Bring a blanket.',
      slots: [{ from: day(20, 16), to: day(20, 19) }],
      place: places[2],
    },
    {
      title: 'Sparkling tower',
      description: 'The tower sparkles every hour.',
      slots: [{ from: day(1, 21), to: day(1, 22) }],
      place: places[3],
    },
  ];
  for (const h of happenings) {
    const doc = await strapi.documents('api::happening.happening').create({ data: h });
    await strapi.documents('api::happening.happening').publish({ documentId: doc.documentId });
  }
  const tours = [
    {
      name: 'Art walk',
      description: 'Two museums **along the Seine**.',
      stops: [places[0], places[1]],
    },
    { name: 'Green Paris', description: 'Parks and gardens.', stops: [places[2], places[5]] },
  ];
  for (const t of tours) {
    const doc = await strapi.documents('api::tour.tour').create({ data: t });
    await strapi.documents('api::tour.tour').publish({ documentId: doc.documentId });
  }
  return true;
}

module.exports = { seedSampleContent };
