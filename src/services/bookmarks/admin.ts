/**
 * The admin actions of the bookmark service (`ops serve user add|list|update|rm`, `ops serve token
 * create|list|revoke`) on its database: run by the running service for the admin route, or by the CLI on
 * <dataDir>/bookmarks when no server runs (services/admin-actions.ts).
 *
 * Rules: arguments are checked here (they arrive as JSON); user.created|updated|deleted are handed to
 * `emit` after their write committed (the running service publishes them on its EventBus at once; offline
 * nobody listens and they are dropped).
 */
import { join } from 'node:path';
import type { DomainEvent } from '../events.js';
import type { AdminActions } from '../types.js';
import { AdminError, flag, optionalText, requiredText, type AdminArgs } from '../admin-actions.js';
import { openDb, type DB } from './store/db.js';
import { forgetTokens } from './auth.js';
import { createToken, deleteToken, deleteUserRow, findUser, insertUser, listTokens, listUsers as listUserRows, updateUserRow, userEventData, type TokenRow, type UserRow } from './store/users.js';

export { AdminError } from '../admin-actions.js';

export type EmitEvent = (event: DomainEvent) => void;

export function bookmarksDir(dataDir: string): string {
  return join(dataDir, 'bookmarks');
}

function userEvent(type: 'user.created' | 'user.updated' | 'user.deleted', u: UserRow): DomainEvent {
  return { type, data: userEventData(u), userId: String(u.id) };
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
export function addUser(db: DB, emit: EmitEvent, opts: { name: string; email: string; tokenName?: string }): { user: UserInfo; token: string } {
  const name = checkName(opts.name);
  const email = checkEmail(opts.email);
  const added = db.transaction(() => {
    if (findUser(db, email)) throw new AdminError(`A user with the email ${email} already exists.`);
    const u = insertUser(db, name, email);
    const t = createToken(db, { userId: u.id, name: opts.tokenName ?? 'default' });
    return { row: u, user: userInfo(db, u), token: t.token };
  })();
  emit(userEvent('user.created', added.row));
  return { user: added.user, token: added.token };
}

export function listUsers(db: DB): UserInfo[] {
  return listUserRows(db).map((u) => userInfo(db, u));
}

export function updateUser(db: DB, emit: EmitEvent, ref: string | number, patch: { name?: string; email?: string }): UserInfo {
  const u = userOrFail(db, ref);
  const email = patch.email === undefined ? undefined : checkEmail(patch.email);
  const name = patch.name === undefined ? undefined : checkName(patch.name);
  if (email && email.toLowerCase() !== u.email.toLowerCase() && findUser(db, email)) throw new AdminError(`A user with the email ${email} already exists.`);
  const updated = updateUserRow(db, u.id, { name, email })!;
  emit(userEvent('user.updated', updated));
  return userInfo(db, updated);
}

/** Removes a user with all their links, lists, tags, notes and tokens. */
export function removeUser(db: DB, emit: EmitEvent, ref: string | number): UserInfo {
  const u = userOrFail(db, ref);
  const info = userInfo(db, u);
  if (deleteUserRow(db, u.id)) emit(userEvent('user.deleted', u));
  return info;
}

/** Creates a user token (for `user`) or a system token (`system`, optionally with private access). */
export function createApiToken(db: DB, opts: { user?: string | number; name?: string; system?: boolean; privateAccess?: boolean }): { token: string; info: TokenInfo } {
  if (opts.system && opts.user !== undefined) throw new AdminError('A system token belongs to no user: give either --system or a user.', 2);
  if (!opts.system && opts.user === undefined) throw new AdminError('Give the user the token is for (id or email), or --system.', 2);
  if (opts.privateAccess && !opts.system) throw new AdminError('--private-access applies to system tokens only.', 2);
  const name = (opts.name ?? (opts.system ? 'system' : 'cli')).trim();
  if (!name || name.length > 100) throw new AdminError('The token name must be 1 to 100 characters.', 2);
  const userId = opts.system ? null : userOrFail(db, opts.user!).id;
  const t = createToken(db, { userId, name, system: opts.system, privateAccess: opts.privateAccess });
  return { token: t.token, info: tokenInfo(db, t.row) };
}

export function listApiTokens(db: DB, opts: { user?: string | number } = {}): TokenInfo[] {
  const rows = opts.user === undefined ? listTokens(db) : listTokens(db, userOrFail(db, opts.user).id);
  return rows.map((t) => tokenInfo(db, t));
}

export function revokeToken(db: DB, id: number | string): TokenInfo {
  const n = Number(id);
  if (!Number.isSafeInteger(n) || n < 1) throw new AdminError(`"${id}" is not a token id.`, 2);
  const t = listTokens(db).find((r) => r.id === n);
  if (!t) throw new AdminError(`No token with id ${n}.`);
  const info = tokenInfo(db, t);
  deleteToken(db, n);
  return info;
}

/** The actions by name, as the admin route and the offline CLI call them (arguments as the CLI sends them). */
export function bookmarksAdmin(db: DB, emit: EmitEvent): AdminActions {
  const ref = (args: AdminArgs, key: string) => requiredText(args, key);
  // a write through this connection is not seen by the token cache's data_version check: tell it
  const writing =
    <T>(fn: (a: AdminArgs) => T) =>
    (a: AdminArgs): T => {
      try {
        return fn(a);
      } finally {
        forgetTokens(db);
      }
    };
  return {
    'user.add': writing((a) => addUser(db, emit, { name: requiredText(a, 'name'), email: requiredText(a, 'email'), tokenName: optionalText(a, 'tokenName') })),
    'user.list': () => listUsers(db),
    'user.update': writing((a) => updateUser(db, emit, ref(a, 'user'), { name: optionalText(a, 'name'), email: optionalText(a, 'email') })),
    'user.remove': writing((a) => removeUser(db, emit, ref(a, 'user'))),
    'token.create': writing((a) => createApiToken(db, { user: optionalText(a, 'user'), name: optionalText(a, 'name'), system: flag(a, 'system'), privateAccess: flag(a, 'privateAccess') })),
    'token.list': (a) => listApiTokens(db, { user: optionalText(a, 'user') }),
    'token.revoke': writing((a) => revokeToken(db, ref(a, 'id'))),
  };
}

/** The actions on <dataDir>/bookmarks when no server runs; close() closes the database. */
export function openBookmarksAdmin(dataDir: string): { actions: AdminActions; close(): void } {
  const db = openDb(bookmarksDir(dataDir));
  return { actions: bookmarksAdmin(db, () => {}), close: () => db.close() };
}
