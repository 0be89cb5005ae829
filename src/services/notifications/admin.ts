/**
 * The admin actions of the notification service (`ops serve key create|list|revoke`): API keys in its
 * store, stored as SHA-256 hashes with a masked prefix; the plaintext exists only in the answer of
 * `key.create`. Run by the running service for the admin route, or by the CLI on
 * <dataDir>/notifications/notifications.db when no server runs (services/admin-actions.ts). The server
 * checks keys against the database on every request, so a revoked key stops at once.
 */
import { join } from 'node:path';
import { privateDir } from '../data-dir.js';
import type { AdminActions } from '../types.js';
import { AdminError, optionalText, requiredText } from '../admin-actions.js';
import { NotifyStore, type ApiKeyInfo } from './store/index.js';

export type { ApiKeyInfo } from './store/index.js';

/** Creates a key; its value is in the answer only. */
export function createKey(store: NotifyStore, now: number, opts: { name?: string } = {}): { info: ApiKeyInfo; key: string } {
  const name = (opts.name ?? 'key').trim();
  if (!name) throw new AdminError('the key name must not be empty', 2);
  if ([...name].length > 100) throw new AdminError('the key name must not be longer than 100 characters', 2);
  const { id, key } = store.createApiKey(now, name);
  return { info: store.listApiKeys().find((k) => k.id === id)!, key };
}

export function listKeys(store: NotifyStore): ApiKeyInfo[] {
  return store.listApiKeys();
}

/** Revokes a key by id; the key's description as it was. */
export function revokeKey(store: NotifyStore, id: string): ApiKeyInfo {
  if (!/^\d{1,15}$/.test(id)) throw new AdminError(`"${id}" is not a key id (see ops serve key list)`, 2);
  const info = store.listApiKeys().find((k) => k.id === Number(id));
  if (!info || !store.revokeApiKey(info.id)) throw new AdminError(`no key with id ${id} (see ops serve key list)`);
  return info;
}

/** The actions by name, as the admin route and the offline CLI call them. */
export function notificationsAdmin(store: NotifyStore, now: () => number): AdminActions {
  return {
    'key.create': (a) => createKey(store, now(), { name: optionalText(a, 'name') }),
    'key.list': () => listKeys(store),
    'key.revoke': (a) => revokeKey(store, requiredText(a, 'id')),
  };
}

/** The actions on <dataDir>/notifications when no server runs; close() closes the store. */
export function openNotificationsAdmin(dataDir: string): { actions: AdminActions; close(): void } {
  const dir = join(dataDir, 'notifications');
  privateDir(dir);
  const store = new NotifyStore(dir);
  return { actions: notificationsAdmin(store, () => Date.now()), close: () => store.close() };
}
