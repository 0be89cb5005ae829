/**
 * The receiver's durable store of received events (`ops hook serve`, `ops hook replay`):
 * de-duplication by envelope id that survives restarts, and the raw bytes kept for replay.
 * SQLite (WAL) through better-sqlite3; one file.
 */
import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';

export interface StoredEvent {
  id: string;
  type: string;
  /** The envelope's own timestamp (as sent). */
  timestamp: string;
  /** When this receiver first got it (ms since the epoch). */
  receivedAt: number;
  /** How many times it was received (1 + duplicates). */
  deliveries: number;
  /** The exact bytes received. */
  body: Buffer;
}

export interface EventQuery {
  id?: string;
  type?: string;
  /** Received at or after (ms since the epoch). */
  since?: number;
  limit?: number;
}

/** Keep received ids for a week by default: far beyond the ~2.6 h retry window. */
export const DEFAULT_RETENTION_MS = 7 * 24 * 3600 * 1000;

interface Row {
  id: string;
  type: string;
  timestamp: string;
  received_at: number;
  deliveries: number;
  body: Buffer;
}

const toEvent = (r: Row): StoredEvent => ({
  id: r.id,
  type: r.type,
  timestamp: r.timestamp,
  receivedAt: r.received_at,
  deliveries: r.deliveries,
  body: r.body,
});

export class EventStore {
  private readonly db: Database.Database;
  private readonly insertStmt: Database.Statement;
  private readonly bumpStmt: Database.Statement;

  constructor(readonly file: string) {
    if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true });
    this.db = new Database(file);
    this.db.pragma('journal_mode = WAL');
    this.db.pragma('synchronous = NORMAL');
    this.db.pragma('busy_timeout = 5000');
    this.db.exec(`
      -- One B-tree keyed by the event id (no rowid, no other index): recording an event writes
      -- as little as possible, which is what the receiver does on every request.
      CREATE TABLE IF NOT EXISTS received_events (
        id TEXT PRIMARY KEY,
        type TEXT NOT NULL,
        timestamp TEXT NOT NULL,
        received_at INTEGER NOT NULL,
        deliveries INTEGER NOT NULL DEFAULT 1,
        body BLOB NOT NULL
      ) WITHOUT ROWID;
    `);
    this.insertStmt = this.db.prepare(
      'INSERT OR IGNORE INTO received_events (id, type, timestamp, received_at, body) VALUES (?, ?, ?, ?, ?)',
    );
    this.bumpStmt = this.db.prepare('UPDATE received_events SET deliveries = deliveries + 1 WHERE id = ?');
  }

  /** Records an event; `duplicate` when its id was seen before (then only the count changes). */
  record(event: { id: string; type: string; timestamp: string }, body: Buffer, receivedAt: number): { duplicate: boolean } {
    const info = this.insertStmt.run(event.id, event.type, event.timestamp, receivedAt, body);
    if (info.changes === 1) return { duplicate: false };
    this.bumpStmt.run(event.id);
    return { duplicate: true };
  }

  get(id: string): StoredEvent | undefined {
    const r = this.db.prepare('SELECT * FROM received_events WHERE id = ?').get(id) as Row | undefined;
    return r && toEvent(r);
  }

  /** Events in the order received, filtered. */
  list(q: EventQuery = {}): StoredEvent[] {
    const where: string[] = [];
    const args: unknown[] = [];
    if (q.id !== undefined) {
      where.push('id = ?');
      args.push(q.id);
    }
    if (q.type !== undefined) {
      where.push('type = ?');
      args.push(q.type);
    }
    if (q.since !== undefined) {
      where.push('received_at >= ?');
      args.push(q.since);
    }
    const sql =
      'SELECT * FROM received_events' +
      (where.length ? ` WHERE ${where.join(' AND ')}` : '') +
      ' ORDER BY received_at, id' +
      (q.limit !== undefined ? ` LIMIT ${Math.max(0, Math.floor(q.limit))}` : '');
    return (this.db.prepare(sql).all(...args) as Row[]).map(toEvent);
  }

  count(): number {
    return (this.db.prepare('SELECT count(*) AS n FROM received_events').get() as { n: number }).n;
  }

  /** Forgets events received before `before` (ms); returns how many. */
  prune(before: number): number {
    return this.db.prepare('DELETE FROM received_events WHERE received_at < ?').run(before).changes;
  }

  close(): void {
    if (this.db.open) this.db.close();
  }
}
