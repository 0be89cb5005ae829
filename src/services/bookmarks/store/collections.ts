/** Lists and tags: the two kinds of collection a link belongs to. */
import { q, type DB } from './db.js';
import { visibleSql, type Caller } from '../access.js';
import { isoMicro } from '../time.js';
import { limitOffset, type Page, type PageRequest } from '../pagination.js';

export type CollectionKind = 'lists' | 'tags';

export const KINDS = {
  lists: { table: 'lists', pivot: 'link_lists', fk: 'list_id', model: 'LinkList', hasDescription: true },
  tags: { table: 'tags', pivot: 'link_tags', fk: 'tag_id', model: 'Tag', hasDescription: false },
} as const;

export interface CollectionRow {
  id: number;
  user_id: number;
  name: string;
  description?: string | null;
  visibility: number;
  created_at: string;
  updated_at: string;
  deleted_at: string | null;
}

export const LIST_ORDER = ['id', 'name', 'description', 'visibility', 'created_at', 'updated_at', 'random'] as const;
export const TAG_ORDER = ['id', 'name', 'visibility', 'created_at', 'updated_at', 'random'] as const;

export function collectionJson(kind: CollectionKind, r: CollectionRow): Record<string, unknown> {
  if (kind === 'lists')
    return {
      id: r.id,
      user_id: r.user_id,
      name: r.name,
      description: r.description ?? null,
      visibility: r.visibility,
      created_at: r.created_at,
      updated_at: r.updated_at,
      deleted_at: r.deleted_at,
    };
  return {
    id: r.id,
    user_id: r.user_id,
    name: r.name,
    visibility: r.visibility,
    created_at: r.created_at,
    updated_at: r.updated_at,
    deleted_at: r.deleted_at,
  };
}

export function getCollection(db: DB, kind: CollectionKind, id: number, withTrashed = false): CollectionRow | undefined {
  const row = q(db, `SELECT * FROM ${KINDS[kind].table} WHERE id = ?`).get(id) as CollectionRow | undefined;
  if (!row || (!withTrashed && row.deleted_at)) return undefined;
  return row;
}

/** Own collection of this name, trashed ones included. */
export function findOwnByName(db: DB, kind: CollectionKind, userId: number, name: string): CollectionRow | undefined {
  return q(db, `SELECT * FROM ${KINDS[kind].table} WHERE user_id = ? AND name = ? ORDER BY deleted_at IS NOT NULL, id LIMIT 1`).get(userId, name) as CollectionRow | undefined;
}

export function listCollections(db: DB, caller: Caller, kind: CollectionKind, order: { by: string; dir: 'asc' | 'desc' }, page: PageRequest): Page<CollectionRow> {
  const t = KINDS[kind].table;
  const v = visibleSql(caller, '');
  const { limit, offset } = limitOffset(page);
  const d = order.dir === 'asc' ? 'ASC' : 'DESC';
  const by = order.by === 'random' ? 'random()' : `${order.by} ${d}, name ASC, id ${d}`;
  const rows = q(db, `SELECT * FROM ${t} WHERE deleted_at IS NULL AND ${v.sql} ORDER BY ${by} LIMIT ? OFFSET ?`).all(...v.params, limit, offset) as CollectionRow[];
  const total = q(db, `SELECT count(*) FROM ${t} WHERE deleted_at IS NULL AND ${v.sql}`)
    .pluck()
    .get(...v.params) as number;
  return { data: rows, total, page };
}

export function insertCollection(db: DB, kind: CollectionKind, c: { user_id: number; name: string; description?: string | null; visibility: number }): CollectionRow {
  const now = isoMicro();
  const info =
    kind === 'lists'
      ? q(db, 'INSERT INTO lists (user_id, name, description, visibility, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)').run(c.user_id, c.name, c.description ?? null, c.visibility, now, now)
      : q(db, 'INSERT INTO tags (user_id, name, visibility, created_at, updated_at) VALUES (?, ?, ?, ?, ?)').run(c.user_id, c.name, c.visibility, now, now);
  return getCollection(db, kind, Number(info.lastInsertRowid))!;
}

export function updateCollection(db: DB, kind: CollectionKind, id: number, patch: { name?: string; description?: string | null; visibility?: number }): CollectionRow {
  const cols: string[] = [];
  const vals: unknown[] = [];
  for (const [k, v] of Object.entries(patch)) {
    if (v === undefined || (k === 'description' && kind === 'tags')) continue;
    cols.push(`${k} = ?`);
    vals.push(v);
  }
  cols.push('updated_at = ?');
  vals.push(isoMicro());
  q(db, `UPDATE ${KINDS[kind].table} SET ${cols.join(', ')} WHERE id = ?`).run(...vals, id);
  return getCollection(db, kind, id, true)!;
}

export function setCollectionDeleted(db: DB, kind: CollectionKind, id: number, deleted: boolean): void {
  q(db, `UPDATE ${KINDS[kind].table} SET deleted_at = ? WHERE id = ?`).run(deleted ? isoMicro() : null, id);
}

/**
 * The caller's own collections whose name contains `query` (case-insensitive), by name: search is scoped to
 * the caller as LinkAce's SearchController scopes it (`byUser`), so system tokens and guests find nothing.
 */
export function searchCollections(db: DB, caller: Caller, kind: CollectionKind, query: string): CollectionRow[] {
  if (caller.kind !== 'user') return [];
  const like = `%${query.replace(/[\\%_]/g, (m) => `\\${m}`)}%`;
  return q(db, `SELECT * FROM ${KINDS[kind].table} WHERE deleted_at IS NULL AND user_id = ? AND name LIKE ? ESCAPE '\\' ORDER BY name ASC, id ASC LIMIT 1000`).all(
    caller.userId,
    like,
  ) as CollectionRow[];
}
