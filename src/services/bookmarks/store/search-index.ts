/**
 * An in-memory copy of what link search reads (owner, visibility, status, url, title, description, dates),
 * so a substring search over 100k links is a loop over strings instead of a table scan, and adding a link
 * costs nothing extra in SQLite. Kept in step with the database: writes made here are applied by id; a
 * change made by another connection (SQLite's data_version moves) reloads it. Loaded on first use.
 */
import { q, type DB } from './db.js';
import { canView, type Caller } from '../access.js';
import { KINDS, type CollectionKind } from './collections.js';
import type { LinkSearch } from './link-search.js';

interface Entry {
  id: number;
  userId: number;
  visibility: number;
  deleted: boolean;
  status: number;
  url: string;
  title: string;
  createdAt: string;
  updatedAt: string;
  checkDisabled: number;
  urlL: string;
  titleL: string;
  /** url and title in one string: one scan instead of two for the common search_title=1 */
  utL: string;
  descL: string | null;
}

interface Row {
  id: number;
  user_id: number;
  visibility: number;
  deleted_at: string | null;
  status: number;
  url: string;
  title: string;
  description: string | null;
  created_at: string;
  updated_at: string;
  check_disabled: number;
}

const COLUMNS = 'id, user_id, visibility, deleted_at, status, url, title, description, created_at, updated_at, check_disabled';

function entryOf(r: Row): Entry {
  return {
    id: r.id,
    userId: r.user_id,
    visibility: r.visibility,
    deleted: r.deleted_at !== null,
    status: r.status,
    url: r.url,
    title: r.title,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    checkDisabled: r.check_disabled ? 1 : 0,
    urlL: r.url.toLowerCase(),
    titleL: r.title.toLowerCase(),
    utL: `${r.url}\u0000${r.title}`.toLowerCase(),
    descL: r.description === null ? null : r.description.toLowerCase(),
  };
}

/** The sort key of each order a search accepts (description case-insensitively, no description first). */
const ORDER_KEYS: Record<string, (e: Entry) => string | number> = {
  id: (e) => e.id,
  url: (e) => e.url,
  title: (e) => e.title,
  description: (e) => e.descL ?? '',
  visibility: (e) => e.visibility,
  status: (e) => e.status,
  check_disabled: (e) => e.checkDisabled,
  created_at: (e) => e.createdAt,
  updated_at: (e) => e.updatedAt,
};

function cmp(a: string | number, b: string | number): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

export interface IndexSource {
  dataVersion(): number;
  takeChanges(): Set<number> | 'all';
}

export class SearchIndex {
  private entries = new Map<number, Entry>();
  private loadedVersion: number | null = null;

  constructor(
    private readonly db: DB,
    private readonly source: IndexSource,
  ) {}

  /** Brings the copy up to date with the database. */
  sync(): void {
    const dv = this.source.dataVersion();
    const changes = this.source.takeChanges();
    if (this.loadedVersion === null || dv !== this.loadedVersion || changes === 'all') {
      this.entries = new Map();
      for (const r of q(this.db, `SELECT ${COLUMNS} FROM links ORDER BY id`).all() as Row[]) this.entries.set(r.id, entryOf(r));
      this.loadedVersion = dv;
      return;
    }
    if (!changes.size) return;
    const ids = [...changes];
    const found = new Set<number>();
    for (const r of q(this.db, `SELECT ${COLUMNS} FROM links WHERE id IN (SELECT value FROM json_each(?))`).all(JSON.stringify(ids)) as Row[]) {
      this.entries.set(r.id, entryOf(r));
      found.add(r.id);
    }
    for (const id of ids) if (!found.has(id)) this.entries.delete(id);
  }

  private linkIdsIn(kind: CollectionKind, collectionIds: number[] | null): Set<number> {
    const k = KINDS[kind];
    const sql =
      `SELECT DISTINCT p.link_id FROM ${k.pivot} p JOIN ${k.table} c ON c.id = p.${k.fk} WHERE c.deleted_at IS NULL` + (collectionIds ? ` AND p.${k.fk} IN (SELECT value FROM json_each(?))` : '');
    const stmt = q(this.db, sql).pluck();
    return new Set((collectionIds ? stmt.all(JSON.stringify(collectionIds)) : stmt.all()) as number[]);
  }

  /** The ids of the matching links the caller can see, in order, and how many there are. */
  search(caller: Caller, s: LinkSearch, offset: number, limit: number): { ids: number[]; total: number } {
    this.sync();
    const needle = s.query ? s.query.toLowerCase() : null;
    const joined = needle !== null && s.searchTitle && !needle.includes('\u0000');
    const inLists = s.emptyLists ? null : s.onlyLists?.length ? this.linkIdsIn('lists', s.onlyLists) : null;
    const anyList = s.emptyLists ? this.linkIdsIn('lists', null) : null;
    const inTags = s.emptyTags ? null : s.onlyTags?.length ? this.linkIdsIn('tags', s.onlyTags) : null;
    const anyTag = s.emptyTags ? this.linkIdsIn('tags', null) : null;
    const own = s.ownOnly ? (caller.kind === 'user' ? caller.userId : -1) : null;
    const matches: Entry[] = [];
    for (const e of this.entries.values()) {
      if (e.deleted) continue;
      if (own !== null && e.userId !== own) continue;
      if (s.visibility && e.visibility !== s.visibility) continue;
      if (s.isPrivate === true && e.visibility !== 3) continue;
      if (s.isPrivate === false && e.visibility === 3) continue;
      if (s.brokenOnly && e.status <= 1) continue;
      if (
        needle !== null &&
        !((joined ? e.utL.includes(needle) : e.urlL.includes(needle) || (s.searchTitle && e.titleL.includes(needle))) || (s.searchDescription && e.descL !== null && e.descL.includes(needle)))
      )
        continue;
      if (inLists && !inLists.has(e.id)) continue;
      if (anyList && anyList.has(e.id)) continue;
      if (inTags && !inTags.has(e.id)) continue;
      if (anyTag && anyTag.has(e.id)) continue;
      if (!canView(caller, { user_id: e.userId, visibility: e.visibility })) continue;
      matches.push(e);
    }
    const o = s.order;
    if (o && o.by === 'random') {
      for (let i = matches.length - 1; i > 0; i--) {
        const j = Math.floor(Math.random() * (i + 1));
        [matches[i], matches[j]] = [matches[j]!, matches[i]!];
      }
    } else if (o) {
      const key = ORDER_KEYS[o.by] ?? ORDER_KEYS.id!;
      const sign = o.dir === 'desc' ? -1 : 1;
      matches.sort((a, b) => sign * (cmp(key(a), key(b)) || a.id - b.id));
    } else matches.sort((a, b) => a.id - b.id);
    const page = limit < 0 ? matches.slice(offset) : matches.slice(offset, offset + limit);
    return { ids: page.map((e) => e.id), total: matches.length };
  }
}
