/**
 * Persistence of pipeline definitions, API keys and each pipeline's desired deployment status in SQLite
 * (better-sqlite3, WAL), one file in the service's data directory. The desired status (Running, Paused or
 * Shutdown) is what a restart of the server brings each pipeline back to; the pipelines' state itself is in
 * their storage folders (storage/).
 */
import type Database from 'better-sqlite3';
import { openCheckedDatabase, type OpenStoreOptions } from '../../store-guard.js';
import { join } from 'node:path';
import type { PipelineRecord } from './model.js';

export const PIPELINES_DB_FILE = 'pipelines.db';

export interface ApiKeyRow {
  id: string;
  name: string;
  hash: string;
  created_at: string;
}

export class PipelineStore {
  readonly db: Database.Database;

  readonly file: string;

  /** Opens the store, checked first (store-guard.ts: a damaged file throws StoreDamagedError). */
  constructor(dir: string, options: OpenStoreOptions = {}) {
    this.file = join(dir, PIPELINES_DB_FILE);
    this.db = openCheckedDatabase(this.file, 'pipelines', options);
    this.db.exec(`
      CREATE TABLE IF NOT EXISTS pipelines (
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL UNIQUE,
        body TEXT NOT NULL
      );
      CREATE TABLE IF NOT EXISTS desired_status (
        id TEXT PRIMARY KEY,
        status TEXT NOT NULL
      );
      CREATE TABLE IF NOT EXISTS api_keys (
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL UNIQUE,
        hash TEXT NOT NULL UNIQUE,
        created_at TEXT NOT NULL
      );
    `);
  }

  all(): PipelineRecord[] {
    const rows = this.db.prepare('SELECT body FROM pipelines ORDER BY rowid').all() as { body: string }[];
    return rows.map((r) => JSON.parse(r.body) as PipelineRecord);
  }

  save(rec: PipelineRecord): void {
    this.db.prepare('INSERT INTO pipelines (id, name, body) VALUES (?, ?, ?) ON CONFLICT(id) DO UPDATE SET name = excluded.name, body = excluded.body').run(rec.id, rec.name, JSON.stringify(rec));
  }

  delete(id: string): void {
    this.db.prepare('DELETE FROM pipelines WHERE id = ?').run(id);
    this.db.prepare('DELETE FROM desired_status WHERE id = ?').run(id);
  }

  /** Each pipeline's stored desired status (pipelines never started have none: Shutdown). */
  desiredStatuses(): Map<string, string> {
    const rows = this.db.prepare('SELECT id, status FROM desired_status').all() as { id: string; status: string }[];
    return new Map(rows.map((r) => [r.id, r.status]));
  }

  setDesiredStatus(id: string, status: 'Running' | 'Paused' | 'Shutdown'): void {
    this.db.prepare('INSERT INTO desired_status (id, status) VALUES (?, ?) ON CONFLICT(id) DO UPDATE SET status = excluded.status').run(id, status);
  }

  apiKeys(): ApiKeyRow[] {
    return this.db.prepare('SELECT id, name, hash, created_at FROM api_keys ORDER BY created_at, name').all() as ApiKeyRow[];
  }

  apiKeyByHash(hash: string): ApiKeyRow | undefined {
    return this.db.prepare('SELECT id, name, hash, created_at FROM api_keys WHERE hash = ?').get(hash) as ApiKeyRow | undefined;
  }

  apiKeyByName(name: string): ApiKeyRow | undefined {
    return this.db.prepare('SELECT id, name, hash, created_at FROM api_keys WHERE name = ?').get(name) as ApiKeyRow | undefined;
  }

  addApiKey(row: ApiKeyRow): void {
    this.db.prepare('INSERT INTO api_keys (id, name, hash, created_at) VALUES (?, ?, ?, ?)').run(row.id, row.name, row.hash, row.created_at);
  }

  deleteApiKey(name: string): boolean {
    return this.db.prepare('DELETE FROM api_keys WHERE name = ?').run(name).changes > 0;
  }

  close(): void {
    this.db.close();
  }
}
