/**
 * API keys of the notification service (`ops serve key`): only a key's SHA-256 and a masked prefix
 * are stored; the plaintext is shown once, when it is created. A key's last use is written at most
 * once a minute, so checking a key on every request costs no write.
 */
import { createHash, randomBytes } from 'node:crypto';
import type Database from 'better-sqlite3';
import { iso } from './rows.js';

/** The notification store's connection (db.ts's DB, named here so that db.ts may import this module). */
type DB = Database.Database;

export const hashApiKey = (key: string) => createHash('sha256').update(key, 'utf8').digest('hex');

/** What `ops serve key list` shows of a key: its first 8 characters, the rest masked. */
export const maskApiKey = (key: string) => `${key.slice(0, Math.min(8, Math.floor(key.length / 2)))}…`;

export interface ApiKeyInfo {
  id: number;
  name: string;
  /** the first characters of the key, masked ("ntf_AbCd…") */
  prefix: string;
  created_at: string;
  last_used_at: string | null;
}

export function hasApiKey(db: DB): boolean {
  return db.prepare('SELECT 1 FROM api_keys LIMIT 1').get() !== undefined;
}

/** Creates a new API key; returns the plaintext (only its hash and a masked prefix are stored). */
export function createApiKey(db: DB, now: number, name = 'local'): { id: number; key: string } {
  const key = `ntf_${randomBytes(24).toString('base64url')}`;
  const r = db.prepare('INSERT INTO api_keys (hash, created_at, name, prefix) VALUES (?, ?, ?, ?)').run(hashApiKey(key), now, name, maskApiKey(key));
  return { id: Number(r.lastInsertRowid), key };
}

/** The stored keys, oldest first (never their values). */
export function listApiKeys(db: DB): ApiKeyInfo[] {
  const rows = db.prepare('SELECT id, name, prefix, created_at, last_used_at FROM api_keys ORDER BY id').all() as {
    id: number;
    name: string;
    prefix: string | null;
    created_at: number;
    last_used_at: number | null;
  }[];
  return rows.map((r) => ({ id: r.id, name: r.name, prefix: r.prefix ?? 'ntf_…', created_at: iso(r.created_at)!, last_used_at: iso(r.last_used_at) }));
}

/** Deletes a key; false when there is no key with that id. */
export function revokeApiKey(db: DB, id: number): boolean {
  return db.prepare('DELETE FROM api_keys WHERE id = ?').run(id).changes > 0;
}

/** The id of the stored key matching a presented key, or null. Marks its last use (at most once a minute). */
export function useApiKey(db: DB, key: string, now: number): number | null {
  const row = db.prepare('SELECT id, last_used_at FROM api_keys WHERE hash = ?').get(hashApiKey(key)) as { id: number; last_used_at: number | null } | undefined;
  if (!row) return null;
  if (row.last_used_at === null || now - row.last_used_at >= 60_000) db.prepare('UPDATE api_keys SET last_used_at = ? WHERE id = ?').run(now, row.id);
  return row.id;
}
