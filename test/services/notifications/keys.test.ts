/**
 * Notification API keys from the attacker's side: a key created with `ops serve key create` works, is
 * listed without its value, and once revoked is refused (401) by the running server at once; a key
 * from OPS_NOTIFY_API_KEY works only while it is given and is never written to the database; old
 * databases are migrated (plaintext keys hashed, stored environment keys forgotten).
 */
import { afterEach, describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import service from '../../../src/services/notifications/index.js';
import { AdminError } from '../../../src/services/admin-actions.js';
import { createKey, listKeys, revokeKey } from '../../helpers/admin.js';
import { hashApiKey } from '../../../src/services/notifications/store/index.js';
import { buildServiceApp, type ServiceApp } from '../../helpers/service-app.js';
import { tempDir } from '../../helpers/cli.js';

const apps: ServiceApp[] = [];
afterEach(async () => {
  for (const a of apps.splice(0)) await a.close();
});

async function start(options: Record<string, unknown> = {}, dataDir?: string): Promise<ServiceApp> {
  const a = await buildServiceApp(service, options, dataDir ? { dataDir } : {});
  apps.push(a);
  return a;
}

const status = async (a: ServiceApp, key: string) => (await a.app.inject({ url: '/notify/v1/webhooks', headers: { authorization: `Bearer ${key}` } })).statusCode;

function storedHashes(dataDir: string): string[] {
  const db = new Database(join(dataDir, 'notifications', 'notifications.db'), { readonly: true });
  try {
    return (db.prepare('SELECT hash FROM api_keys ORDER BY id').all() as { hash: string }[]).map((r) => r.hash);
  } finally {
    db.close();
  }
}

describe('ops serve key (the admin functions)', () => {
  it('create -> works on the running server; list shows no value; revoke -> 401 at once', async () => {
    const a = await start();
    const local = (await a.handle.localCredentials!()).notifyApiKey!;
    const created = createKey(a.dataDir, { name: 'ci' });
    expect(created.key).toMatch(/^ntf_[A-Za-z0-9_-]{32}$/);
    expect(created.info).toMatchObject({ name: 'ci', prefix: `${created.key.slice(0, 8)}…`, last_used_at: null });
    expect(await status(a, created.key)).toBe(200);

    const listed = listKeys(a.dataDir);
    expect(listed.map((k) => [k.id, k.name])).toEqual([
      [1, 'local'],
      [created.info.id, 'ci'],
    ]);
    expect(listed[1]!.last_used_at).not.toBeNull();
    expect(listed[1]!.created_at).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(JSON.stringify(listed)).not.toContain(created.key);
    expect(JSON.stringify(listed)).not.toContain(local);
    expect(storedHashes(a.dataDir)).toContain(hashApiKey(created.key));

    expect(revokeKey(a.dataDir, String(created.info.id))).toMatchObject({ id: created.info.id, name: 'ci' });
    expect(await status(a, created.key)).toBe(401);
    expect(await status(a, local)).toBe(200);
    expect(() => revokeKey(a.dataDir, String(created.info.id))).toThrow(AdminError);
    expect(() => revokeKey(a.dataDir, 'abc')).toThrow(/not a key id/);
    expect(() => createKey(a.dataDir, { name: '  ' })).toThrow(/must not be empty/);
  });

  it('revoking the local key locks it out too', async () => {
    const a = await start();
    const local = (await a.handle.localCredentials!()).notifyApiKey!;
    revokeKey(a.dataDir, '1');
    expect(await status(a, local)).toBe(401);
  });
});

describe('OPS_NOTIFY_API_KEY', () => {
  it('is accepted while given, never stored, and refused after a start without it', async () => {
    const dataDir = tempDir('ops-notify-env-');
    const a = await start({ notifyApiKey: 'ntf_from_the_environment' }, dataDir);
    expect(await status(a, 'ntf_from_the_environment')).toBe(200);
    expect(storedHashes(dataDir)).not.toContain(hashApiKey('ntf_from_the_environment'));
    expect(listKeys(dataDir)).toHaveLength(1);
    await a.close();
    apps.splice(apps.indexOf(a), 1);

    const saved = process.env.OPS_NOTIFY_API_KEY;
    delete process.env.OPS_NOTIFY_API_KEY;
    try {
      const b = await start({}, dataDir);
      expect(await status(b, 'ntf_from_the_environment')).toBe(401);
    } finally {
      if (saved !== undefined) process.env.OPS_NOTIFY_API_KEY = saved;
    }
  });
});

describe('an old notifications.db', () => {
  it('plaintext keys are hashed at start and keep working; stored environment keys are forgotten', async () => {
    const dataDir = tempDir('ops-notify-old-');
    mkdirSync(join(dataDir, 'notifications'), { recursive: true });
    const db = new Database(join(dataDir, 'notifications', 'notifications.db'));
    db.exec('CREATE TABLE api_keys (id INTEGER PRIMARY KEY AUTOINCREMENT, hash TEXT NOT NULL UNIQUE, created_at INTEGER NOT NULL)');
    db.prepare('INSERT INTO api_keys (hash, created_at) VALUES (?, ?)').run('ntf_the_local_profile_key', 1_700_000_000_000);
    db.prepare('INSERT INTO api_keys (hash, created_at) VALUES (?, ?)').run(hashApiKey('ntf_once_from_env'), 1_700_000_000_001);
    db.close();

    const a = await start({}, dataDir);
    expect(await a.handle.localCredentials!()).toEqual({});
    expect(await status(a, 'ntf_the_local_profile_key')).toBe(200);
    expect(await status(a, 'ntf_once_from_env')).toBe(401);
    expect(storedHashes(dataDir)).toEqual([hashApiKey('ntf_the_local_profile_key')]);
    expect(listKeys(dataDir)).toEqual([{ id: 1, name: 'local', prefix: 'ntf_the_…', created_at: '2023-11-14T22:13:20.000Z', last_used_at: expect.any(String) }]);
  });
});
