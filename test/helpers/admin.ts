/**
 * The admin actions of `ops serve user|token|key` on a data dir with no server (as the CLI runs them then),
 * under the names and shapes tests used before the actions took a database: each call opens the service's
 * database, runs one action by name with its JSON arguments, and closes it.
 */
import { openBookmarksAdmin, type TokenInfo, type UserInfo } from '../../src/services/bookmarks/admin.js';
import { openNotificationsAdmin, type ApiKeyInfo } from '../../src/services/notifications/admin.js';
import type { AdminActions } from '../../src/services/types.js';

function run<T>(open: () => { actions: AdminActions; close(): void }, action: string, args: Record<string, unknown>): T {
  const opened = open();
  try {
    return opened.actions[action]!(args) as T;
  } finally {
    opened.close();
  }
}

const bm = <T>(dataDir: string, action: string, args: Record<string, unknown> = {}) => run<T>(() => openBookmarksAdmin(dataDir), action, args);
const ref = (r: string | number | undefined) => (r === undefined ? undefined : String(r));

export const addUser = (dataDir: string, opts: { name: string; email: string; tokenName?: string }) => bm<{ user: UserInfo; token: string }>(dataDir, 'user.add', opts);
export const listUsers = (dataDir: string) => bm<UserInfo[]>(dataDir, 'user.list');
export const updateUser = (dataDir: string, user: string | number, patch: { name?: string; email?: string }) => bm<UserInfo>(dataDir, 'user.update', { user: ref(user), ...patch });
export const removeUser = (dataDir: string, user: string | number) => bm<UserInfo>(dataDir, 'user.remove', { user: ref(user) });
export const createApiToken = (dataDir: string, opts: { user?: string | number; name?: string; system?: boolean; privateAccess?: boolean }) =>
  bm<{ token: string; info: TokenInfo }>(dataDir, 'token.create', { ...opts, user: ref(opts.user) });
export const listApiTokens = (dataDir: string, opts: { user?: string | number } = {}) => bm<TokenInfo[]>(dataDir, 'token.list', { user: ref(opts.user) });
export const revokeToken = (dataDir: string, id: string | number) => bm<TokenInfo>(dataDir, 'token.revoke', { id: String(id) });

const notify = <T>(dataDir: string, action: string, args: Record<string, unknown> = {}) => run<T>(() => openNotificationsAdmin(dataDir), action, args);

export const createKey = (dataDir: string, opts: { name?: string } = {}) => notify<{ info: ApiKeyInfo; key: string }>(dataDir, 'key.create', opts);
export const listKeys = (dataDir: string) => notify<ApiKeyInfo[]>(dataDir, 'key.list');
export const revokeKey = (dataDir: string, id: string) => notify<ApiKeyInfo>(dataDir, 'key.revoke', { id });
