/**
 * Stored events, read side: one event or a page of them, newest first. An event is stored with its
 * exact bytes (what was signed and sent); it is written by the outbox, together with its deliveries.
 */
import type { DB } from './db.js';
import { iso } from './rows.js';

export interface StoredEventInfo {
  id: string;
  type: string;
  timestamp: string;
  createdAt: string;
  data: Record<string, unknown>;
}

interface EventRow {
  id: string;
  type: string;
  timestamp: string;
  body: Buffer;
  created_at: number;
}

function toEventInfo(r: EventRow): StoredEventInfo {
  let data: Record<string, unknown> = {};
  try {
    data = (JSON.parse(r.body.toString('utf8')) as { data?: Record<string, unknown> }).data ?? {};
  } catch {
    /* stored bytes are always our own JSON */
  }
  return { id: r.id, type: r.type, timestamp: r.timestamp, createdAt: iso(r.created_at)!, data };
}

export function getEvent(db: DB, id: string): StoredEventInfo | undefined {
  const r = db.prepare('SELECT * FROM events WHERE id = ?').get(id) as EventRow | undefined;
  return r && toEventInfo(r);
}

export function listEvents(db: DB, q: { type?: string; limit?: number; offset?: number } = {}): { data: StoredEventInfo[]; total: number } {
  const where = q.type ? 'WHERE type = ?' : '';
  const args = q.type ? [q.type] : [];
  const total = (db.prepare(`SELECT count(*) AS n FROM events ${where}`).get(...args) as { n: number }).n;
  const rows = db.prepare(`SELECT * FROM events ${where} ORDER BY rowid DESC LIMIT ? OFFSET ?`).all(...args, q.limit ?? 50, q.offset ?? 0) as EventRow[];
  return { data: rows.map(toEventInfo), total };
}
