/** Users and API tokens (stored as SHA-256 hashes). Writing here publishes nothing: admin.ts emits the user events. */
import { createHash, randomBytes } from 'node:crypto';
import { q, type DB } from './db.js';
import { isoMicro } from '../time.js';
import { bumpLinks } from './links.js';

export interface UserRow {
  id: number;
  name: string;
  email: string;
  default_visibility: number;
  created_at: string;
  updated_at: string;
}

export interface TokenRow {
  id: number;
  user_id: number | null;
  name: string;
  hash: string;
  system: number;
  private_access: number;
  created_at: string;
  last_used_at: string | null;
}

export function hashToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/** The public payload of user events: `{id (string), email, name, createdAt}`. */
export function userEventData(u: UserRow): Record<string, unknown> {
  return { id: String(u.id), email: u.email, name: u.name, createdAt: u.created_at };
}

export function getUser(db: DB, id: number): UserRow | undefined {
  return q(db, 'SELECT * FROM users WHERE id = ?').get(id) as UserRow | undefined;
}

export function findUser(db: DB, idOrEmail: string | number): UserRow | undefined {
  if (typeof idOrEmail === 'number' || /^\d+$/.test(idOrEmail)) return getUser(db, Number(idOrEmail));
  return q(db, 'SELECT * FROM users WHERE email = ?').get(idOrEmail) as UserRow | undefined;
}

export function listUsers(db: DB): UserRow[] {
  return q(db, 'SELECT * FROM users ORDER BY id').all() as UserRow[];
}

export function countUsers(db: DB): number {
  return (q(db, 'SELECT count(*) AS n FROM users').get() as { n: number }).n;
}

export function insertUser(db: DB, name: string, email: string): UserRow {
  const now = isoMicro();
  const info = q(db, 'INSERT INTO users (name, email, created_at, updated_at) VALUES (?, ?, ?, ?)').run(name, email, now, now);
  return getUser(db, Number(info.lastInsertRowid))!;
}

export function updateUserRow(db: DB, id: number, patch: { name?: string; email?: string; default_visibility?: number }): UserRow | undefined {
  return db.transaction(() => {
    const u = getUser(db, id);
    if (!u) return undefined;
    const next = { ...u, ...Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined)), updated_at: isoMicro() };
    q(db, 'UPDATE users SET name = ?, email = ?, default_visibility = ?, updated_at = ? WHERE id = ?').run(next.name, next.email, next.default_visibility, next.updated_at, id);
    return getUser(db, id)!;
  })();
}

export function deleteUserRow(db: DB, id: number): UserRow | undefined {
  return db.transaction(() => {
    const u = getUser(db, id);
    if (!u) return undefined;
    q(db, 'DELETE FROM users WHERE id = ?').run(id);
    // their links went with them (ON DELETE CASCADE): cached pages, totals and the search index must know
    bumpLinks(db);
    return u;
  })();
}

export interface NewToken {
  token: string;
  row: TokenRow;
}

/** Creates a token `<id>|<40 random chars>`; only its hash is stored. */
export function createToken(db: DB, opts: { userId: number | null; name: string; system?: boolean; privateAccess?: boolean }): NewToken {
  return db.transaction(() => {
    const now = isoMicro();
    const placeholder = `pending-${randomBytes(16).toString('hex')}`;
    const info = q(db, 'INSERT INTO tokens (user_id, name, hash, system, private_access, created_at) VALUES (?, ?, ?, ?, ?, ?)').run(
      opts.system ? null : opts.userId,
      opts.name,
      placeholder,
      opts.system ? 1 : 0,
      opts.system && opts.privateAccess ? 1 : 0,
      now,
    );
    const id = Number(info.lastInsertRowid);
    const secret = randomBytes(30).toString('base64url').slice(0, 40);
    const token = `${id}|${secret}`;
    q(db, 'UPDATE tokens SET hash = ? WHERE id = ?').run(hashToken(token), id);
    return { token, row: q(db, 'SELECT * FROM tokens WHERE id = ?').get(id) as TokenRow };
  })();
}

export function findToken(db: DB, token: string): TokenRow | undefined {
  return q(db, 'SELECT * FROM tokens WHERE hash = ?').get(hashToken(token)) as TokenRow | undefined;
}

export function listTokens(db: DB, userId?: number): TokenRow[] {
  if (userId === undefined) return q(db, 'SELECT * FROM tokens ORDER BY id').all() as TokenRow[];
  return q(db, 'SELECT * FROM tokens WHERE user_id = ? ORDER BY id').all(userId) as TokenRow[];
}

export function deleteToken(db: DB, id: number): boolean {
  return q(db, 'DELETE FROM tokens WHERE id = ?').run(id).changes > 0;
}
