/** Links: rows, queries under the caller's visibility, writes, and their tags and lists. */
import { q, type DB } from './db.js';
import { visibleSql, scopeKey, type Caller } from '../access.js';
import { isoMicro } from '../time.js';
import { limitOffset, type Page, type PageRequest } from '../pagination.js';
import { collectionJson, type CollectionKind, type CollectionRow, KINDS } from './collections.js';

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
export type Dir = 'asc' | 'desc';

export function orderSql(alias: string, col: string, dir: Dir): string {
  if (col === 'random') return 'random()';
  const a = alias ? `${alias}.` : '';
  const d = dir === 'asc' ? 'ASC' : 'DESC';
  return `${a}${col} ${d}, ${a}id ${d}`;
}

// A per-database generation bumped by every link write here; with SQLite's data_version (changes made
// by other connections, e.g. the admin CLI) it keeps cached totals honest.
const generations = new WeakMap<DB, { gen: number; totals: Map<string, { gen: number; dv: number; total: number }> }>();

function genState(db: DB) {
  let s = generations.get(db);
  if (!s) generations.set(db, (s = { gen: 0, totals: new Map() }));
  return s;
}

export function bumpLinks(db: DB): void {
  genState(db).gen++;
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
  const rows = q(db, `SELECT * FROM links WHERE deleted_at IS NULL AND ${v.sql} ORDER BY ${orderSql('', order.by, order.dir)} LIMIT ? OFFSET ?`).all(
    ...v.params,
    limit,
    offset,
  ) as LinkRow[];
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
      total = q(db, `SELECT count(*) FROM links WHERE deleted_at IS NULL AND ${v.sql}`).pluck().get(...v.params) as number;
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
  const info = q(
    db,
    `INSERT INTO links (user_id, url, title, description, icon, visibility, status, check_disabled, thumbnail, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(
    l.user_id,
    l.url,
    l.title,
    l.description,
    l.icon,
    l.visibility,
    l.status ?? 1,
    l.check_disabled ? 1 : 0,
    l.thumbnail ?? null,
    l.created_at ?? now,
    now,
  );
  bumpLinks(db);
  return getLink(db, Number(info.lastInsertRowid))!;
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
  bumpLinks(db);
  return getLink(db, id, true)!;
}

export function setLinkDeleted(db: DB, id: number, deleted: boolean): void {
  q(db, 'UPDATE links SET deleted_at = ? WHERE id = ?').run(deleted ? isoMicro() : null, id);
  bumpLinks(db);
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
export function linksOfCollection(
  db: DB,
  caller: Caller,
  kind: CollectionKind,
  collectionId: number,
  order: { by: string; dir: Dir },
  page: PageRequest,
): Page<LinkJson> {
  const k = KINDS[kind];
  const v = visibleSql(caller, 'l');
  const { limit, offset } = limitOffset(page);
  const where = `FROM ${k.pivot} p JOIN links l ON l.id = p.link_id WHERE p.${k.fk} = ? AND l.deleted_at IS NULL AND ${v.sql}`;
  const rows = q(db, `SELECT l.* ${where} ORDER BY ${orderSql('l', order.by, order.dir)} LIMIT ? OFFSET ?`).all(
    collectionId,
    ...v.params,
    limit,
    offset,
  ) as LinkRow[];
  const total = q(db, `SELECT count(*) ${where}`).pluck().get(collectionId, ...v.params) as number;
  return { data: rows.map((r) => ({ ...linkJson(r), pivot: { [k.fk]: collectionId, link_id: r.id } })), total, page };
}

export interface LinkSearch {
  query?: string | null;
  searchTitle?: boolean;
  searchDescription?: boolean;
  visibility?: number | null;
  brokenOnly?: boolean;
  emptyLists?: boolean;
  onlyLists?: number[];
  emptyTags?: boolean;
  onlyTags?: number[];
  /** v1: only the caller's own links */
  ownOnly?: boolean;
  /** v1 is_private: true = private only, false = public and internal only */
  isPrivate?: boolean | null;
  order?: { by: string; dir: Dir } | null;
}

function likeEscape(s: string): string {
  return s.replace(/[\\%_]/g, (m) => `\\${m}`);
}

export function searchLinks(db: DB, caller: Caller, s: LinkSearch, page: PageRequest): Page<LinkRow> {
  const v = visibleSql(caller, 'l');
  const conds = ['l.deleted_at IS NULL', v.sql];
  const params: unknown[] = [...v.params];
  if (s.ownOnly) {
    conds.push('l.user_id = ?');
    params.push(caller.kind === 'user' ? caller.userId : -1);
  }
  if (s.query) {
    const like = `%${likeEscape(s.query)}%`;
    if ([...s.query].length >= 3) {
      // the trigram index narrows the candidates; the LIKE below keeps LIKE's exact semantics
      const cols = ['url', ...(s.searchTitle ? ['title'] : []), ...(s.searchDescription ? ['description'] : [])];
      conds.push('l.id IN (SELECT rowid FROM links_fts WHERE links_fts MATCH ?)');
      params.push(`{${cols.join(' ')}} : "${s.query.replace(/"/g, '""')}"`);
    }
    const ors = ["l.url LIKE ? ESCAPE '\\'"];
    params.push(like);
    if (s.searchTitle) {
      ors.push("l.title LIKE ? ESCAPE '\\'");
      params.push(like);
    }
    if (s.searchDescription) {
      ors.push("l.description LIKE ? ESCAPE '\\'");
      params.push(like);
    }
    conds.push(`(${ors.join(' OR ')})`);
  }
  if (s.visibility) {
    conds.push('l.visibility = ?');
    params.push(s.visibility);
  }
  if (s.brokenOnly) conds.push('l.status > 1');
  if (s.isPrivate === true) conds.push('l.visibility = 3');
  else if (s.isPrivate === false) conds.push('l.visibility <> 3');
  for (const kind of ['lists', 'tags'] as const) {
    const k = KINDS[kind];
    const empty = kind === 'lists' ? s.emptyLists : s.emptyTags;
    const only = kind === 'lists' ? s.onlyLists : s.onlyTags;
    const live = `EXISTS (SELECT 1 FROM ${k.pivot} p JOIN ${k.table} c ON c.id = p.${k.fk} WHERE p.link_id = l.id AND c.deleted_at IS NULL`;
    if (empty) conds.push(`NOT ${live})`);
    else if (only && only.length) {
      conds.push(`${live} AND p.${k.fk} IN (${only.map(() => '?').join(',')}))`);
      params.push(...only);
    }
  }
  const { limit, offset } = limitOffset(page);
  // In id order a plain table scan beats walking a partial index and looking every row up.
  const from = s.order ? 'links l' : 'links l NOT INDEXED';
  const orderBy = s.order ? orderSql('l', s.order.by, s.order.dir) : 'l.id ASC';
  const where = conds.join(' AND ');
  const rows = db.prepare(`SELECT l.* FROM ${from} WHERE ${where} ORDER BY ${orderBy} LIMIT ? OFFSET ?`).all(...params, limit, offset) as LinkRow[];
  let total: number;
  if (page.perPage === null || (offset === 0 && rows.length < limit)) total = rows.length;
  else total = db.prepare(`SELECT count(*) FROM links l WHERE ${where}`).pluck().get(...params) as number;
  return { data: rows, total, page };
}

/** Links to check: not trashed, checks enabled, never checked or checked longest ago first. */
export function linksToCheck(db: DB, limit: number, ownerId?: number): LinkRow[] {
  if (ownerId !== undefined)
    return q(db, 'SELECT * FROM links WHERE deleted_at IS NULL AND check_disabled = 0 AND user_id = ? ORDER BY id').all(ownerId) as LinkRow[];
  return q(
    db,
    `SELECT * FROM links WHERE deleted_at IS NULL AND check_disabled = 0
     ORDER BY last_checked_at IS NOT NULL, last_checked_at ASC, id ASC LIMIT ?`,
  ).all(limit) as LinkRow[];
}
