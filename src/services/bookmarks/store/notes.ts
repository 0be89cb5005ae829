/** Notes attached to links. */
import { q, type DB } from './db.js';
import { visibleSql, type Caller } from '../access.js';
import { isoMicro } from '../time.js';
import { limitOffset, type Page, type PageRequest } from '../pagination.js';

export interface NoteRow {
  id: number;
  user_id: number;
  link_id: number;
  note: string;
  visibility: number;
  created_at: string;
  updated_at: string;
  deleted_at: string | null;
}

export function noteJson(r: NoteRow): Record<string, unknown> {
  return {
    id: r.id,
    user_id: r.user_id,
    link_id: r.link_id,
    note: r.note,
    visibility: r.visibility,
    created_at: r.created_at,
    updated_at: r.updated_at,
    deleted_at: r.deleted_at,
  };
}

export const NOTE_ORDER = ['id', 'note', 'visibility', 'created_at', 'updated_at'] as const;

export function getNote(db: DB, id: number, withTrashed = false): NoteRow | undefined {
  const row = q(db, 'SELECT * FROM notes WHERE id = ?').get(id) as NoteRow | undefined;
  if (!row || (!withTrashed && row.deleted_at)) return undefined;
  return row;
}

export function notesOfLink(db: DB, caller: Caller, linkId: number, order: { by: string; dir: 'asc' | 'desc' }, page: PageRequest): Page<NoteRow> {
  const v = visibleSql(caller, '');
  const { limit, offset } = limitOffset(page);
  const d = order.dir === 'asc' ? 'ASC' : 'DESC';
  const rows = q(db, `SELECT * FROM notes WHERE link_id = ? AND deleted_at IS NULL AND ${v.sql} ORDER BY ${order.by} ${d}, id ${d} LIMIT ? OFFSET ?`).all(
    linkId,
    ...v.params,
    limit,
    offset,
  ) as NoteRow[];
  const total = q(db, `SELECT count(*) FROM notes WHERE link_id = ? AND deleted_at IS NULL AND ${v.sql}`)
    .pluck()
    .get(linkId, ...v.params) as number;
  return { data: rows, total, page };
}

export function insertNote(db: DB, n: { user_id: number; link_id: number; note: string; visibility: number }): NoteRow {
  const now = isoMicro();
  const info = q(db, 'INSERT INTO notes (user_id, link_id, note, visibility, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)').run(n.user_id, n.link_id, n.note, n.visibility, now, now);
  return getNote(db, Number(info.lastInsertRowid))!;
}

export function updateNote(db: DB, id: number, patch: { note?: string; visibility?: number }): NoteRow {
  const cur = getNote(db, id, true)!;
  q(db, 'UPDATE notes SET note = ?, visibility = ?, updated_at = ? WHERE id = ?').run(patch.note ?? cur.note, patch.visibility ?? cur.visibility, isoMicro(), id);
  return getNote(db, id, true)!;
}

export function setNoteDeleted(db: DB, id: number, deleted: boolean): void {
  q(db, 'UPDATE notes SET deleted_at = ? WHERE id = ?').run(deleted ? isoMicro() : null, id);
}
