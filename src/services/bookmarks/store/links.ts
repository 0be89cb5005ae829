/** Links: rows, queries under the caller's visibility, writes, and their tags and lists. */
import { q, type DB } from './db.js';
import { visibleSql, scopeKey, type Caller } from '../access.js';
import { isoMicro } from '../time.js';
import { limitOffset, type Page, type PageRequest } from '../pagination.js';
import { collectionJson, type CollectionKind, type CollectionRow, KINDS } from './collections.js';
import { SearchIndex } from './search-index.js';
import type { Dir, LinkSearch } from './link-search.js';

export type { Dir, LinkSearch } from './link-search.js';

export interface LinkRow {
  id: number;
  user_id: number;
  url: string;
  title: string;
  description: string | null;
  icon: string | null;
  visibility: number;
  status: number;
  check_disabled: number;
  last_checked_at: string | null;
  thumbnail: string | null;
  created_at: string;
  updated_at: string;
  deleted_at: string | null;
}

export type LinkJson = Omit<LinkRow, 'check_disabled'> & { check_disabled: boolean; [k: string]: unknown };

export function linkJson(r: LinkRow): LinkJson {
  return {
    id: r.id,
    user_id: r.user_id,
    url: r.url,
    title: r.title,
    description: r.description,
    icon: r.icon,
    visibility: r.visibility,
    status: r.status,
    check_disabled: r.check_disabled === 1,
    last_checked_at: r.last_checked_at,
    thumbnail: r.thumbnail,
    created_at: r.created_at,
    updated_at: r.updated_at,
    deleted_at: r.deleted_at,
  };
}

export const LINK_ORDER = ['id', 'url', 'title', 'description', 'visibility', 'status', 'check_disabled', 'created_at', 'updated_at', 'random'] as const;
export type LinkOrder = (typeof LINK_ORDER)[number];

export function orderSql(alias: string, col: string, dir: Dir): string {
  if (col === 'random') return 'random()';
  const a = alias ? `${alias}.` : '';
  const d = dir === 'asc' ? 'ASC' : 'DESC';
  return `${a}${col} ${d}, ${a}id ${d}`;
}

// A per-database generation bumped by every link write here; with SQLite's data_version (changes made
// by other connections, e.g. the admin CLI) it keeps cached totals honest.
interface GenState {
  gen: number;
  totals: Map<string, { gen: number; dv: number; total: number }>;
  changed: Set<number> | 'all';
}
const generations = new WeakMap<DB, GenState>();

function genState(db: DB): GenState {
  let s = generations.get(db);
  if (!s) generations.set(db, (s = { gen: 0, totals: new Map(), changed: new Set<number>() }));
  return s;
}

/** Records a change to links (one id, or 'all' when unknown) for the caches and the search index. */
export function bumpLinks(db: DB, id: number | 'all' = 'all'): void {
  const s = genState(db);
  s.gen++;
  if (id === 'all' || (s.changed !== 'all' && s.changed.size >= 10_000)) s.changed = 'all';
  else if (s.changed !== 'all') s.changed.add(id);
}

/** Takes the ids of links changed here since the last call ('all' when unknown). */
export function takeLinkChanges(db: DB): Set<number> | 'all' {
  const s = genState(db);
  const c = s.changed;
  s.changed = new Set();
  return c;
}

function dataVersion(db: DB): number {
  return q(db, 'PRAGMA data_version').pluck().get() as number;
}

/** Changes whenever any link changes (here or through another connection): a key for caches. */
export function linksVersion(db: DB): string {
  return `${genState(db).gen}:${dataVersion(db)}`;
}

export function getLink(db: DB, id: number, withTrashed = false): LinkRow | undefined {
  const row = q(db, 'SELECT * FROM links WHERE id = ?').get(id) as LinkRow | undefined;
  if (!row || (!withTrashed && row.deleted_at)) return undefined;
  return row;
}

export function findOwnLinkByUrl(db: DB, userId: number, url: string): LinkRow | undefined {
  return q(db, 'SELECT * FROM links WHERE user_id = ? AND url = ?').get(userId, url) as LinkRow | undefined;
}

/** Is there a non-trashed link with exactly this URL the caller can see? */
export function visibleUrlExists(db: DB, caller: Caller, url: string, ownOnly = false): boolean {
  if (ownOnly) {
    if (caller.kind !== 'user') return false;
    return !!q(db, 'SELECT 1 FROM links WHERE url = ? AND user_id = ? AND deleted_at IS NULL').get(url, caller.userId);
  }
  const v = visibleSql(caller, '');
  return !!q(db, `SELECT 1 FROM links WHERE url = ? AND deleted_at IS NULL AND ${v.sql} LIMIT 1`).get(url, ...v.params);
}

export function listLinks(db: DB, caller: Caller, order: { by: string; dir: Dir }, page: PageRequest): Page<LinkRow> {
  const v = visibleSql(caller, '');
  const { limit, offset } = limitOffset(page);
  const rows = q(db, `SELECT * FROM links WHERE deleted_at IS NULL AND ${v.sql} ORDER BY ${orderSql('', order.by, order.dir)} LIMIT ? OFFSET ?`).all(...v.params, limit, offset) as LinkRow[];
  let total: number;
  if (page.perPage === null) total = rows.length;
  else if (offset === 0 && rows.length < limit) total = rows.length;
  else {
    const s = genState(db);
    const key = scopeKey(caller);
    const dv = dataVersion(db);
    const cached = s.totals.get(key);
    if (cached && cached.gen === s.gen && cached.dv === dv) total = cached.total;
    else {
      total = q(db, `SELECT count(*) FROM links WHERE deleted_at IS NULL AND ${v.sql}`)
        .pluck()
        .get(...v.params) as number;
      s.totals.set(key, { gen: s.gen, dv, total });
    }
  }
  return { data: rows, total, page };
}

export interface NewLink {
  user_id: number;
  url: string;
  title: string;
  description: string | null;
  icon: string | null;
  visibility: number;
  status?: number;
  check_disabled?: boolean;
  thumbnail?: string | null;
  created_at?: string;
}

export function insertLink(db: DB, l: NewLink): LinkRow {
  const now = isoMicro();
  const row: Omit<LinkRow, 'id'> = {
    user_id: l.user_id,
    url: l.url,
    title: l.title,
    description: l.description,
    icon: l.icon,
    visibility: l.visibility,
    status: l.status ?? 1,
    check_disabled: l.check_disabled ? 1 : 0,
    last_checked_at: null,
    thumbnail: l.thumbnail ?? null,
    created_at: l.created_at ?? now,
    updated_at: now,
    deleted_at: null,
  };
  const info = q(
    db,
    `INSERT INTO links (user_id, url, title, description, icon, visibility, status, check_disabled, thumbnail, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(row.user_id, row.url, row.title, row.description, row.icon, row.visibility, row.status, row.check_disabled, row.thumbnail, row.created_at, row.updated_at);
  const id = Number(info.lastInsertRowid);
  bumpLinks(db, id);
  return { id, ...row };
}

const UPDATABLE = new Set(['url', 'title', 'description', 'icon', 'visibility', 'status', 'check_disabled', 'thumbnail', 'last_checked_at']);

export function updateLink(db: DB, id: number, patch: Partial<Record<string, unknown>>, touch = true): LinkRow {
  const cols = Object.keys(patch).filter((k) => UPDATABLE.has(k) && patch[k] !== undefined);
  const values = cols.map((k) => (typeof patch[k] === 'boolean' ? (patch[k] ? 1 : 0) : patch[k]));
  if (touch) {
    cols.push('updated_at');
    values.push(isoMicro());
  }
  if (cols.length) q(db, `UPDATE links SET ${cols.map((c) => `${c} = ?`).join(', ')} WHERE id = ?`).run(...values, id);
  bumpLinks(db, id);
  return getLink(db, id, true)!;
}

export function setLinkDeleted(db: DB, id: number, deleted: boolean): void {
  q(db, 'UPDATE links SET deleted_at = ? WHERE id = ?').run(deleted ? isoMicro() : null, id);
  bumpLinks(db, id);
}

/** Replaces (or appends to) the lists or tags of a link. */
export function attach(db: DB, kind: CollectionKind, linkId: number, ids: number[], mode: 'replace' | 'append'): void {
  const k = KINDS[kind];
  if (mode === 'replace') q(db, `DELETE FROM ${k.pivot} WHERE link_id = ?`).run(linkId);
  const ins = q(db, `INSERT OR IGNORE INTO ${k.pivot} (link_id, ${k.fk}) VALUES (?, ?)`);
  for (const id of ids) ins.run(linkId, id);
}

export function attachedIds(db: DB, kind: CollectionKind, linkId: number): number[] {
  const k = KINDS[kind];
  return q(db, `SELECT ${k.fk} FROM ${k.pivot} WHERE link_id = ?`).pluck().all(linkId) as number[];
}

/** The lists or tags of links that the caller may see, by link id, ordered by name. */
export function collectionsOf(db: DB, caller: Caller, kind: CollectionKind, linkIds: number[]): Map<number, Record<string, unknown>[]> {
  const out = new Map<number, Record<string, unknown>[]>();
  if (!linkIds.length) return out;
  const k = KINDS[kind];
  const v = visibleSql(caller, 'c');
  const sql = `SELECT p.link_id AS _link_id, c.* FROM ${k.pivot} p JOIN ${k.table} c ON c.id = p.${k.fk}
       WHERE p.link_id IN (${linkIds.map(() => '?').join(',')}) AND c.deleted_at IS NULL AND ${v.sql}
       ORDER BY c.name ASC, c.id ASC`;
  const stmt = linkIds.length <= 100 ? q(db, sql) : db.prepare(sql);
  const rows = stmt.all(...linkIds, ...v.params) as (CollectionRow & { _link_id: number })[];
  for (const r of rows) {
    const { _link_id, ...row } = r;
    const item = { ...collectionJson(kind, row), pivot: { link_id: _link_id, [k.fk]: row.id } };
    let arr = out.get(_link_id);
    if (!arr) out.set(_link_id, (arr = []));
    arr.push(item);
  }
  return out;
}

/** A link with its visible `lists` and `tags`. */
export function linkWithRelations(db: DB, caller: Caller, row: LinkRow): LinkJson {
  const lists = collectionsOf(db, caller, 'lists', [row.id]).get(row.id) ?? [];
  const tags = collectionsOf(db, caller, 'tags', [row.id]).get(row.id) ?? [];
  return { ...linkJson(row), lists, tags };
}

/** Links of a list or tag, under the caller's visibility. */
export function linksOfCollection(db: DB, caller: Caller, kind: CollectionKind, collectionId: number, order: { by: string; dir: Dir }, page: PageRequest): Page<LinkJson> {
  const k = KINDS[kind];
  const v = visibleSql(caller, 'l');
  const { limit, offset } = limitOffset(page);
  const where = `FROM ${k.pivot} p JOIN links l ON l.id = p.link_id WHERE p.${k.fk} = ? AND l.deleted_at IS NULL AND ${v.sql}`;
  const rows = q(db, `SELECT l.* ${where} ORDER BY ${orderSql('l', order.by, order.dir)} LIMIT ? OFFSET ?`).all(collectionId, ...v.params, limit, offset) as LinkRow[];
  const total = q(db, `SELECT count(*) ${where}`)
    .pluck()
    .get(collectionId, ...v.params) as number;
  return { data: rows.map((r) => ({ ...linkJson(r), pivot: { [k.fk]: collectionId, link_id: r.id } })), total, page };
}

const indexes = new WeakMap<DB, SearchIndex>();

function searchIndex(db: DB): SearchIndex {
  let idx = indexes.get(db);
  if (!idx) indexes.set(db, (idx = new SearchIndex(db, { dataVersion: () => dataVersion(db), takeChanges: () => takeLinkChanges(db) })));
  return idx;
}

/** Searches the links the caller can see (see SearchIndex), then reads the page's rows. */
export function searchLinks(db: DB, caller: Caller, s: LinkSearch, page: PageRequest): Page<LinkRow> {
  const { limit, offset } = limitOffset(page);
  const { ids, total } = searchIndex(db).search(caller, s, offset, limit);
  const rows = new Map<number, LinkRow>();
  if (ids.length) for (const r of q(db, 'SELECT * FROM links WHERE id IN (SELECT value FROM json_each(?))').all(JSON.stringify(ids)) as LinkRow[]) rows.set(r.id, r);
  return { data: ids.map((id) => rows.get(id)).filter((r): r is LinkRow => r !== undefined), total, page };
}

/** Links to check: not trashed, checks enabled, never checked or checked longest ago first. */
export function linksToCheck(db: DB, limit: number, ownerId?: number): LinkRow[] {
  if (ownerId !== undefined) return q(db, 'SELECT * FROM links WHERE deleted_at IS NULL AND check_disabled = 0 AND user_id = ? ORDER BY id').all(ownerId) as LinkRow[];
  return q(
    db,
    `SELECT * FROM links WHERE deleted_at IS NULL AND check_disabled = 0
     ORDER BY last_checked_at IS NOT NULL, last_checked_at ASC, id ASC LIMIT ?`,
  ).all(limit) as LinkRow[];
}
