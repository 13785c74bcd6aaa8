/**
 * In-memory store of pinpoints, events, categories and lists (render.ts: how they look in
 * responses).
 * Each resource has its own id range (pinpoints 1000001+, events 2000001+, categories 3000001+,
 * lists 4000001+) so a client that mixes ids up gets a 404 instead of touching the wrong object.
 */
import type { DecodedMedia, MediaStore, StoredMedia } from './media';
import type { ParsedRange } from './validation';
import { iso } from './render';
import type { EmulatorState, PutMode, ResourceKind } from './types';

export interface PinpointRec {
  id: number;
  name: string;
  description: string;
  address: string;
  latitude: number;
  longitude: number;
  altitude: number | null;
  category: number | null;
  tags: string[];
  media_credits: string;
  media: StoredMedia | null;
  created: number;
  updated: number;
}

export interface EventRec {
  id: number;
  name: string;
  description: string;
  dates: ParsedRange[];
  pinpoint: number;
  tags: string[];
  media_credits: string;
  media: StoredMedia | null;
  created: number;
  updated: number;
}

export interface CategoryRec {
  id: number;
  name: string;
  image: StoredMedia | null;
  created: number;
  updated: number;
}

export interface ListRec {
  id: number;
  name: string;
  description: string;
  members: Set<number>;
  created: number;
  updated: number;
}

const ID_BASE: Record<ResourceKind, number> = {
  pinpoints: 1_000_000,
  events: 2_000_000,
  categories: 3_000_000,
  lists: 4_000_000,
};

type Fields = Record<string, unknown>;

export class Store {
  pinpoints = new Map<number, PinpointRec>();
  events = new Map<number, EventRec>();
  categories = new Map<number, CategoryRec>();
  lists = new Map<number, ListRec>();
  private next: Record<ResourceKind, number> = { ...ID_BASE };

  constructor(
    private readonly media: MediaStore,
    private readonly now: () => number
  ) {}

  clear(): void {
    this.pinpoints.clear();
    this.events.clear();
    this.categories.clear();
    this.lists.clear();
    this.media.clear();
    this.next = { ...ID_BASE };
  }

  private newId(kind: ResourceKind): number {
    return ++this.next[kind];
  }

  private attach(
    current: StoredMedia | null,
    v: unknown,
    kind: 'pinpoint' | 'event' | 'category',
    id: number
  ): StoredMedia | null {
    // v: undefined = keep, null = clear, DecodedMedia = replace
    if (v === undefined) return current;
    this.media.remove(current);
    return v === null ? null : this.media.add(v as DecodedMedia, { kind, id });
  }

  /**
   * Apply validated fields to a record. `replace` clears every optional field the request omits;
   * `merge` keeps them. Required fields are always present for create/replace (validation saw to it).
   */
  private apply<T extends object>(
    rec: T,
    f: Fields,
    defaults: Fields,
    mode: PutMode | 'create'
  ): void {
    const r = rec as Record<string, unknown>;
    for (const [k, def] of Object.entries(defaults)) {
      if (k in f) r[k] = f[k] === null ? def : f[k];
      else if (mode === 'replace') r[k] = def;
    }
  }

  createPinpoint(f: Fields): PinpointRec {
    const now = this.now();
    const rec: PinpointRec = {
      id: this.newId('pinpoints'),
      name: '',
      description: '',
      address: '',
      latitude: 0,
      longitude: 0,
      altitude: null,
      category: null,
      tags: [],
      media_credits: '',
      media: null,
      created: now,
      updated: now,
    };
    this.updatePinpoint(rec, f, 'create');
    this.pinpoints.set(rec.id, rec);
    return rec;
  }

  updatePinpoint(rec: PinpointRec, f: Fields, mode: PutMode | 'create'): void {
    this.apply(
      rec,
      f,
      {
        name: '',
        description: '',
        address: '',
        latitude: rec.latitude,
        longitude: rec.longitude,
        altitude: null,
        category: null,
        tags: [],
        media_credits: '',
      },
      mode
    );
    rec.media = this.attach(
      rec.media,
      'media_file' in f ? f.media_file : mode === 'replace' ? null : undefined,
      'pinpoint',
      rec.id
    );
    if (mode !== 'create') rec.updated = this.now();
  }

  deletePinpoint(id: number, takeEvents = true): boolean {
    const rec = this.pinpoints.get(id);
    if (!rec) return false;
    this.media.remove(rec.media);
    this.pinpoints.delete(id);
    for (const l of this.lists.values()) l.members.delete(id);
    // Events belong to their pinpoint: they go with it (unless configured to stay, pointing at nothing).
    if (takeEvents)
      for (const e of [...this.events.values()]) if (e.pinpoint === id) this.deleteEvent(e.id);
    return true;
  }

  createEvent(f: Fields): EventRec {
    const now = this.now();
    const rec: EventRec = {
      id: this.newId('events'),
      name: '',
      description: '',
      dates: [],
      pinpoint: 0,
      tags: [],
      media_credits: '',
      media: null,
      created: now,
      updated: now,
    };
    this.updateEvent(rec, f, 'create');
    this.events.set(rec.id, rec);
    return rec;
  }

  updateEvent(rec: EventRec, f: Fields, mode: PutMode | 'create'): void {
    this.apply(
      rec,
      f,
      {
        name: '',
        description: '',
        dates: rec.dates,
        pinpoint: rec.pinpoint,
        tags: [],
        media_credits: '',
      },
      mode
    );
    rec.media = this.attach(
      rec.media,
      'media_file' in f ? f.media_file : mode === 'replace' ? null : undefined,
      'event',
      rec.id
    );
    if (mode !== 'create') rec.updated = this.now();
  }

  deleteEvent(id: number): boolean {
    const rec = this.events.get(id);
    if (!rec) return false;
    this.media.remove(rec.media);
    this.events.delete(id);
    return true;
  }

  createCategory(f: Fields): CategoryRec {
    const now = this.now();
    const rec: CategoryRec = {
      id: this.newId('categories'),
      name: '',
      image: null,
      created: now,
      updated: now,
    };
    this.updateCategory(rec, f, 'create');
    this.categories.set(rec.id, rec);
    return rec;
  }

  updateCategory(rec: CategoryRec, f: Fields, mode: PutMode | 'create'): void {
    this.apply(rec, f, { name: '' }, mode);
    rec.image = this.attach(
      rec.image,
      'image_file' in f ? f.image_file : mode === 'replace' ? null : undefined,
      'category',
      rec.id
    );
    if (mode !== 'create') rec.updated = this.now();
  }

  createList(f: Fields): ListRec {
    const now = this.now();
    const rec: ListRec = {
      id: this.newId('lists'),
      name: '',
      description: '',
      members: new Set(),
      created: now,
      updated: now,
    };
    this.updateList(rec, f, 'create');
    this.lists.set(rec.id, rec);
    return rec;
  }

  updateList(rec: ListRec, f: Fields, mode: PutMode | 'create'): void {
    this.apply(rec, f, { name: '', description: '' }, mode);
    if (mode !== 'create') rec.updated = this.now();
  }

  deleteList(id: number): boolean {
    return this.lists.delete(id);
  }

  /** Pinpoints of a list, ascending by id. */
  pinpointsOfList(listId: number): PinpointRec[] {
    const l = this.lists.get(listId);
    if (!l) return [];
    const out: PinpointRec[] = [];
    for (const id of l.members) {
      const p = this.pinpoints.get(id);
      if (p) out.push(p);
    }
    return out.sort((a, b) => a.id - b.id);
  }

  snapshot(activeTokens: number): EmulatorState {
    const listsOf = new Map<number, number[]>();
    const lists = [...this.lists.values()].map((l) => {
      const members = [...l.members].sort((a, b) => a - b);
      for (const m of members) {
        const arr = listsOf.get(m);
        if (arr) arr.push(l.id);
        else listsOf.set(m, [l.id]);
      }
      return {
        id: l.id,
        name: l.name,
        description: l.description,
        members,
        created: iso(l.created),
        updated: iso(l.updated),
      };
    });
    return {
      pinpoints: [...this.pinpoints.values()].map((p) => ({
        id: p.id,
        name: p.name,
        description: p.description,
        address: p.address,
        latitude: p.latitude,
        longitude: p.longitude,
        altitude: p.altitude,
        category: p.category,
        tags: [...p.tags],
        media_credits: p.media_credits,
        media_url: p.media ? p.media.url : null,
        lists: listsOf.get(p.id) ?? [],
        created: iso(p.created),
        updated: iso(p.updated),
      })),
      events: [...this.events.values()].map((e) => ({
        id: e.id,
        name: e.name,
        description: e.description,
        dates: e.dates.map((d) => ({ start: iso(d.start), end: iso(d.end) })),
        pinpoint: e.pinpoint,
        tags: [...e.tags],
        media_credits: e.media_credits,
        media_url: e.media ? e.media.url : null,
        created: iso(e.created),
        updated: iso(e.updated),
      })),
      categories: [...this.categories.values()].map((c) => ({
        id: c.id,
        name: c.name,
        image_url: c.image ? c.image.url : null,
        created: iso(c.created),
        updated: iso(c.updated),
      })),
      lists,
      media: this.media.list(),
      activeTokens,
    };
  }
}
