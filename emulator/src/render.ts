/** How stored records look in API responses. */
import type { CategoryRec, EventRec, ListRec, PinpointRec } from './store';
import type { DateStyle } from './types';

export const iso = (t: number): string => new Date(t).toISOString();

/** Render an instant in one of the ISO 8601 forms the real service is known to send. */
export function renderDate(t: number, style: DateStyle, index = 0): string {
  const s =
    style === 'mixed'
      ? (['ms-utc', 'utc-offset', 'microseconds', 'local-offset'] as const)[index % 4]!
      : style;
  const base = iso(t); // 2018-02-16T20:00:00.000Z
  switch (s) {
    case 'ms-utc':
      return base;
    case 'utc-offset': {
      const ms = t % 1000 === 0 ? '' : `.${base.slice(20, 23)}000`;
      return `${base.slice(0, 19)}${ms}+00:00`;
    }
    case 'microseconds':
      return `${base.slice(0, 23)}000Z`;
    case 'local-offset':
      return `${iso(t + 2 * 3600_000).slice(0, 23)}+02:00`;
  }
}

export function renderPinpoint(p: PinpointRec, extra: boolean): Record<string, unknown> {
  const out: Record<string, unknown> = {
    id: p.id,
    name: p.name,
    description: p.description,
    address: p.address,
    latitude: p.latitude,
    longitude: p.longitude,
    category: p.category,
    tags: [...p.tags],
    media_credits: p.media_credits,
    media_url: p.media ? p.media.url : null,
  };
  if (extra) {
    // Fields of the real service that the contract does not list: clients must ignore them.
    out.created = iso(p.created);
    out.updated = iso(p.updated);
    out.status = 'published';
    out.external_data = {};
  }
  return out;
}

export function renderEvent(e: EventRec, style: DateStyle): Record<string, unknown> {
  let i = 0;
  return {
    id: e.id,
    name: e.name,
    description: e.description,
    dates: e.dates.map((d) => ({
      start: renderDate(d.start, style, i++),
      end: renderDate(d.end, style, i++),
    })),
    tags: [...e.tags],
    media_credits: e.media_credits,
    media_url: e.media ? e.media.url : null,
  };
}

export function renderCategory(c: CategoryRec): Record<string, unknown> {
  return { id: c.id, name: c.name, image_url: c.image ? c.image.url : null };
}

export function renderList(l: ListRec): Record<string, unknown> {
  return { id: l.id, name: l.name, description: l.description };
}
