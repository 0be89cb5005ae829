/**
 * Opens the notification database (SQLite, WAL, synchronous FULL, foreign keys) and brings its schema up to date: the
 * tables of the first release, then the columns added since, in order.
 */
import type Database from 'better-sqlite3';
import { join } from 'node:path';
import { openCheckedDatabase, type OpenStoreOptions } from '../../store-guard.js';
import { hashApiKey, maskApiKey } from './keys.js';

export type DB = Database.Database;

export const DB_FILE = 'notifications.db';

/** Opens `dir/file` (or an in-memory database for ':memory:'), checked first (store-guard.ts), and migrates it. */
export function openNotifyDb(dir: string, file = DB_FILE, options: OpenStoreOptions = {}): DB {
  const db = openCheckedDatabase(dir === ':memory:' ? ':memory:' : join(dir, file), 'notifications', options);
  db.pragma('busy_timeout = 5000');
  db.pragma('foreign_keys = ON');
  createTables(db);
  addWebhookStatus(db);
  addApiKeyColumns(db);
  return db;
}

function createTables(db: DB): void {
  db.exec(`
    CREATE TABLE IF NOT EXISTS api_keys (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      hash TEXT NOT NULL UNIQUE,
      created_at INTEGER NOT NULL
    );
    CREATE TABLE IF NOT EXISTS webhooks (
      id TEXT PRIMARY KEY,
      url TEXT NOT NULL,
      events TEXT NOT NULL,
      secret TEXT NOT NULL,
      description TEXT,
      created_at INTEGER NOT NULL,
      updated_at INTEGER NOT NULL
    );
    CREATE TABLE IF NOT EXISTS events (
      id TEXT PRIMARY KEY,
      type TEXT NOT NULL,
      timestamp TEXT NOT NULL,
      body BLOB NOT NULL,
      created_at INTEGER NOT NULL
    );
    CREATE TABLE IF NOT EXISTS deliveries (
      id TEXT PRIMARY KEY,
      event_id TEXT NOT NULL REFERENCES events (id),
      webhook_id TEXT NOT NULL,
      url TEXT NOT NULL,
      status TEXT NOT NULL,
      attempts INTEGER NOT NULL DEFAULT 0,
      series_base INTEGER NOT NULL DEFAULT 0,
      next_attempt_at INTEGER,
      inflight_attempt INTEGER,
      last_status_code INTEGER,
      last_error TEXT,
      created_at INTEGER NOT NULL,
      updated_at INTEGER NOT NULL,
      delivered_at INTEGER
    );
    CREATE INDEX IF NOT EXISTS deliveries_due ON deliveries (webhook_id, status, next_attempt_at);
    CREATE TABLE IF NOT EXISTS attempts (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      delivery_id TEXT NOT NULL REFERENCES deliveries (id),
      n INTEGER NOT NULL,
      started_at INTEGER NOT NULL,
      finished_at INTEGER,
      duration_ms REAL,
      status_code INTEGER,
      error TEXT,
      response_excerpt TEXT,
      outcome TEXT
    );
    CREATE INDEX IF NOT EXISTS attempts_delivery ON attempts (delivery_id, id);
  `);
}

const columnsOf = (db: DB, table: string) => (db.prepare(`PRAGMA table_info(${table})`).all() as { name: string }[]).map((c) => c.name);

/** Added after the first release: a webhook is marked failed when a delivery to it fails. */
function addWebhookStatus(db: DB): void {
  const cols = columnsOf(db, 'webhooks');
  if (!cols.includes('status')) db.exec("ALTER TABLE webhooks ADD COLUMN status TEXT NOT NULL DEFAULT 'active'");
  if (!cols.includes('failed_at')) db.exec('ALTER TABLE webhooks ADD COLUMN failed_at INTEGER');
}

/**
 * Added with `ops serve key`: a name, a masked prefix and the last use of each key. A key stored in
 * plaintext by an older install (anything but 64 hex digits) is replaced by its hash here, so it
 * keeps working and is no longer readable.
 */
function addApiKeyColumns(db: DB): void {
  const cols = columnsOf(db, 'api_keys');
  if (!cols.includes('name')) {
    db.exec("ALTER TABLE api_keys ADD COLUMN name TEXT NOT NULL DEFAULT 'local'");
    // Before `ops serve key`, the only key ever generated was the first (created on first start,
    // before any other); the later rows are OPS_NOTIFY_API_KEY values that were stored: forget them.
    db.exec('DELETE FROM api_keys WHERE id > (SELECT min(id) FROM api_keys)');
  }
  if (!cols.includes('prefix')) db.exec('ALTER TABLE api_keys ADD COLUMN prefix TEXT');
  if (!cols.includes('last_used_at')) db.exec('ALTER TABLE api_keys ADD COLUMN last_used_at INTEGER');
  const plain = (db.prepare('SELECT id, hash FROM api_keys').all() as { id: number; hash: string }[]).filter((r) => !/^[0-9a-f]{64}$/.test(r.hash));
  if (plain.length === 0) return;
  const update = db.prepare('UPDATE OR IGNORE api_keys SET hash = ?, prefix = coalesce(prefix, ?) WHERE id = ?');
  db.transaction(() => {
    for (const r of plain) update.run(hashApiKey(r.hash), maskApiKey(r.hash), r.id);
  })();
}
