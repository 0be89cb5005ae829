/**
 * The logic of `ops serve user add|list|rm` and `ops serve token create|list|revoke`, working on the
 * data directory of `ops serve` (the bookmark database lives in <dataDir>/bookmarks). Safe to run while
 * the server runs (SQLite WAL); user events recorded here are published by the running server.
 */
import { join } from 'node:path';
import { openDb, type DB } from './store/db.js';
import {
  createToken,
  deleteToken,
  deleteUserRow,
  findUser,
  insertUser,
  listTokens,
  listUsers as listUserRows,
  updateUserRow,
  type TokenRow,
  type UserRow,
} from './store/users.js';

export class AdminError extends Error {
  constructor(
    message: string,
    /** 1 failure, 2 usage */
    readonly exitCode: 1 | 2 = 1,
  ) {
    super(message);
  }
}

export function bookmarksDir(dataDir: string): string {
  return join(dataDir, 'bookmarks');
}

function withDb<T>(dataDir: string, fn: (db: DB) => T): T {
  const db = openDb(bookmarksDir(dataDir));
  try {
    return fn(db);
  } finally {
    db.close();
  }
}

export interface UserInfo {
  id: number;
  name: string;
  email: string;
  created_at: string;
  updated_at: string;
  tokens: number;
}

export interface TokenInfo {
  id: number;
  name: string;
  user_id: number | null;
  user_email: string | null;
  system: boolean;
  private_access: boolean;
  created_at: string;
  last_used_at: string | null;
}

function userInfo(db: DB, u: UserRow): UserInfo {
  return { id: u.id, name: u.name, email: u.email, created_at: u.created_at, updated_at: u.updated_at, tokens: listTokens(db, u.id).length };
}

function tokenInfo(db: DB, t: TokenRow): TokenInfo {
  const user = t.user_id === null ? undefined : findUser(db, t.user_id);
  return {
    id: t.id,
    name: t.name,
    user_id: t.user_id,
    user_email: user?.email ?? null,
    system: t.system === 1,
    private_access: t.private_access === 1,
    created_at: t.created_at,
    last_used_at: t.last_used_at,
  };
}

const EMAIL = /^[^\s@]+@[^\s@]+$/;

function checkName(name: string): string {
  const n = name.trim();
  if (!n) throw new AdminError('The user name must not be empty.', 2);
  if (n.length > 255) throw new AdminError('The user name must not be longer than 255 characters.', 2);
  return n;
}

function checkEmail(email: string): string {
  const e = email.trim();
  if (!EMAIL.test(e)) throw new AdminError(`"${email}" is not a valid email address.`, 2);
  return e;
}

function userOrFail(db: DB, ref: string | number): UserRow {
  const u = findUser(db, ref);
  if (!u) throw new AdminError(`No user "${ref}" (give an id or an email).`);
  return u;
}

/** Adds a user and a first token for it (the token is shown once). */
export function addUser(dataDir: string, opts: { name: string; email: string; tokenName?: string }): { user: UserInfo; token: string } {
  const name = checkName(opts.name);
  const email = checkEmail(opts.email);
  return withDb(dataDir, (db) =>
    db.transaction(() => {
      if (findUser(db, email)) throw new AdminError(`A user with the email ${email} already exists.`);
      const u = insertUser(db, name, email);
      const t = createToken(db, { userId: u.id, name: opts.tokenName ?? 'default' });
      return { user: userInfo(db, u), token: t.token };
    })(),
  );
}

export function listUsers(dataDir: string): UserInfo[] {
  return withDb(dataDir, (db) => listUserRows(db).map((u) => userInfo(db, u)));
}

export function updateUser(dataDir: string, ref: string | number, patch: { name?: string; email?: string }): UserInfo {
  return withDb(dataDir, (db) => {
    const u = userOrFail(db, ref);
    const email = patch.email === undefined ? undefined : checkEmail(patch.email);
    if (email && email.toLowerCase() !== u.email.toLowerCase() && findUser(db, email)) throw new AdminError(`A user with the email ${email} already exists.`);
    const updated = updateUserRow(db, u.id, { name: patch.name === undefined ? undefined : checkName(patch.name), email });
    return userInfo(db, updated!);
  });
}

/** Removes a user with all their links, lists, tags, notes and tokens. */
export function removeUser(dataDir: string, ref: string | number): UserInfo {
  return withDb(dataDir, (db) => {
    const u = userOrFail(db, ref);
    const info = userInfo(db, u);
    deleteUserRow(db, u.id);
    return info;
  });
}

/** Creates a user token (for `user`) or a system token (`system`, optionally with private access). */
export function createApiToken(
  dataDir: string,
  opts: { user?: string | number; name?: string; system?: boolean; privateAccess?: boolean },
): { token: string; info: TokenInfo } {
  if (opts.system && opts.user !== undefined) throw new AdminError('A system token belongs to no user: give either --system or a user.', 2);
  if (!opts.system && opts.user === undefined) throw new AdminError('Give the user the token is for (id or email), or --system.', 2);
  if (opts.privateAccess && !opts.system) throw new AdminError('--private-access applies to system tokens only.', 2);
  const name = (opts.name ?? (opts.system ? 'system' : 'cli')).trim();
  if (!name || name.length > 100) throw new AdminError('The token name must be 1 to 100 characters.', 2);
  return withDb(dataDir, (db) => {
    const userId = opts.system ? null : userOrFail(db, opts.user!).id;
    const t = createToken(db, { userId, name, system: opts.system, privateAccess: opts.privateAccess });
    return { token: t.token, info: tokenInfo(db, t.row) };
  });
}

export function listApiTokens(dataDir: string, opts: { user?: string | number } = {}): TokenInfo[] {
  return withDb(dataDir, (db) => {
    const rows = opts.user === undefined ? listTokens(db) : listTokens(db, userOrFail(db, opts.user).id);
    return rows.map((t) => tokenInfo(db, t));
  });
}

export function revokeToken(dataDir: string, id: number | string): TokenInfo {
  const n = Number(id);
  if (!Number.isSafeInteger(n) || n < 1) throw new AdminError(`"${id}" is not a token id.`, 2);
  return withDb(dataDir, (db) => {
    const t = listTokens(db).find((r) => r.id === n);
    if (!t) throw new AdminError(`No token with id ${n}.`);
    const info = tokenInfo(db, t);
    deleteToken(db, n);
    return info;
  });
}
