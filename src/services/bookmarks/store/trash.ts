/** The trash: the caller's own soft-deleted links, lists, tags and notes. */
import { q, type DB } from './db.js';
import { bumpLinks } from './links.js';

export const TRASH_TYPES = ['links', 'lists', 'tags', 'notes'] as const;
export type TrashType = (typeof TRASH_TYPES)[number];
export const RESTORE_TYPES = { link: 'links', list: 'lists', tag: 'tags', note: 'notes' } as const;
export type RestoreType = keyof typeof RESTORE_TYPES;

export function trashed(db: DB, userId: number, type: TrashType): Record<string, unknown>[] {
  return q(db, `SELECT * FROM ${type} WHERE user_id = ? AND deleted_at IS NOT NULL ORDER BY id`).all(userId) as Record<string, unknown>[];
}

/** Permanently deletes the user's trashed items of one type; returns how many. */
export function clearTrash(db: DB, userId: number, type: TrashType): number {
  const n = q(db, `DELETE FROM ${type} WHERE user_id = ? AND deleted_at IS NOT NULL`).run(userId).changes;
  if (type === 'links') bumpLinks(db);
  return n;
}

/** Restores one of the user's items; false when the user has no such item. */
export function restore(db: DB, userId: number, type: TrashType, id: number): boolean {
  const row = q(db, `SELECT id FROM ${type} WHERE id = ? AND user_id = ?`).get(id, userId);
  if (!row) return false;
  q(db, `UPDATE ${type} SET deleted_at = NULL WHERE id = ?`).run(id);
  if (type === 'links') bumpLinks(db, id);
  return true;
}
