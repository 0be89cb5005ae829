/**
 * The logic of `ops serve key create|list|revoke`: API keys of the local notification service, in
 * <dataDir>/notifications/notifications.db. Keys are stored as SHA-256 hashes with a masked prefix;
 * the plaintext exists only in the answer of `createKey`. Safe while the server runs (SQLite WAL; the
 * server checks keys against the database on every request, so a revoked key stops at once).
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { NotifyStore, type ApiKeyInfo } from './store/index.js';

export type { ApiKeyInfo } from './store/index.js';

export class KeyAdminError extends Error {
  constructor(
    message: string,
    /** 1 failure, 2 usage */
    readonly exitCode: 1 | 2 = 1,
  ) {
    super(message);
  }
}

function withStore<T>(dataDir: string, fn: (store: NotifyStore) => T): T {
  const dir = join(dataDir, 'notifications');
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const store = new NotifyStore(dir);
  try {
    return fn(store);
  } finally {
    store.close();
  }
}

/** Creates a key; its value is in the answer only. */
export function createKey(dataDir: string, opts: { name?: string } = {}, now = Date.now()): { info: ApiKeyInfo; key: string } {
  const name = (opts.name ?? 'key').trim();
  if (!name) throw new KeyAdminError('the key name must not be empty', 2);
  if ([...name].length > 100) throw new KeyAdminError('the key name must not be longer than 100 characters', 2);
  return withStore(dataDir, (store) => {
    const { id, key } = store.createApiKey(now, name);
    return { info: store.listApiKeys().find((k) => k.id === id)!, key };
  });
}

export function listKeys(dataDir: string): ApiKeyInfo[] {
  return withStore(dataDir, (store) => store.listApiKeys());
}

/** Revokes a key by id; the key's description as it was. */
export function revokeKey(dataDir: string, id: string): ApiKeyInfo {
  if (!/^\d{1,15}$/.test(id)) throw new KeyAdminError(`"${id}" is not a key id (see ops serve key list)`, 2);
  return withStore(dataDir, (store) => {
    const info = store.listApiKeys().find((k) => k.id === Number(id));
    if (!info || !store.revokeApiKey(info.id)) throw new KeyAdminError(`no key with id ${id} (see ops serve key list)`);
    return info;
  });
}
