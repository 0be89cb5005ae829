/**
 * Deliveries, read side: one delivery or a filtered page of them, each with all its attempts, and the
 * counts by status. Listing puts failed first, then pending, then delivered, newest first within
 * each. Deliveries are written only by the outbox (outbox.ts).
 */
import type { Attempt, Delivery, DeliveryQuery, DeliveryStatus } from '../../../wire/notifications.js';
import type { DB } from './db.js';
import { iso } from './rows.js';

export interface DeliveryRow {
  id: string;
  event_id: string;
  event_type: string;
  webhook_id: string;
  url: string;
  status: DeliveryStatus;
  attempts: number;
  series_base: number;
  next_attempt_at: number | null;
  inflight_attempt: number | null;
  last_status_code: number | null;
  last_error: string | null;
  created_at: number;
  updated_at: number;
  delivered_at: number | null;
}

interface AttemptRow {
  id: number;
  delivery_id: string;
  n: number;
  started_at: number;
  finished_at: number | null;
  duration_ms: number | null;
  status_code: number | null;
  error: string | null;
  response_excerpt: string | null;
  outcome: Attempt['outcome'] | null;
}

export const DELIVERY_ROW_SQL = 'SELECT d.*, e.type AS event_type FROM deliveries d JOIN events e ON e.id = d.event_id WHERE d.id = ?';

export function getDelivery(db: DB, id: string): Delivery | undefined {
  const row = db.prepare(DELIVERY_ROW_SQL).get(id) as DeliveryRow | undefined;
  if (!row) return undefined;
  return withAttempts(db, [row])[0];
}

export function listDeliveries(db: DB, q: DeliveryQuery = {}): { data: Delivery[]; total: number } {
  const where: string[] = [];
  const args: unknown[] = [];
  if (q.status) {
    where.push('d.status = ?');
    args.push(q.status);
  }
  if (q.webhookId) {
    where.push('d.webhook_id = ?');
    args.push(q.webhookId);
  }
  if (q.eventId) {
    where.push('d.event_id = ?');
    args.push(q.eventId);
  }
  if (q.type) {
    where.push('e.type = ?');
    args.push(q.type);
  }
  const w = where.length ? `WHERE ${where.join(' AND ')}` : '';
  const total = (db.prepare(`SELECT count(*) AS n FROM deliveries d JOIN events e ON e.id = d.event_id ${w}`).get(...args) as { n: number }).n;
  const rows = db
    .prepare(
      `SELECT d.*, e.type AS event_type FROM deliveries d JOIN events e ON e.id = d.event_id ${w}
       ORDER BY CASE d.status WHEN 'failed' THEN 0 WHEN 'pending' THEN 1 ELSE 2 END, d.created_at DESC, d.rowid DESC
       LIMIT ? OFFSET ?`,
    )
    .all(...args, q.limit ?? 50, q.offset ?? 0) as DeliveryRow[];
  return { data: withAttempts(db, rows), total };
}

export function countsByStatus(db: DB): Record<DeliveryStatus, number> {
  const out: Record<DeliveryStatus, number> = { pending: 0, delivered: 0, failed: 0 };
  for (const r of db.prepare('SELECT status, count(*) AS n FROM deliveries GROUP BY status').all() as { status: DeliveryStatus; n: number }[]) {
    out[r.status] = r.n;
  }
  return out;
}

function withAttempts(db: DB, rows: DeliveryRow[]): Delivery[] {
  if (rows.length === 0) return [];
  const ids = rows.map((r) => r.id);
  const attempts = db.prepare(`SELECT * FROM attempts WHERE delivery_id IN (${ids.map(() => '?').join(',')}) ORDER BY id`).all(...ids) as AttemptRow[];
  const by = new Map<string, Attempt[]>();
  for (const a of attempts) {
    const list = by.get(a.delivery_id) ?? [];
    list.push({
      n: a.n,
      startedAt: iso(a.started_at)!,
      finishedAt: iso(a.finished_at),
      durationMs: a.duration_ms,
      statusCode: a.status_code,
      error: a.error,
      responseExcerpt: a.response_excerpt,
      outcome: a.outcome ?? 'in_flight',
    });
    by.set(a.delivery_id, list);
  }
  return rows.map((r) => ({
    id: r.id,
    eventId: r.event_id,
    eventType: r.event_type,
    webhookId: r.webhook_id,
    url: r.url,
    status: r.status,
    attemptCount: r.attempts,
    nextAttemptAt: r.status === 'pending' ? iso(r.next_attempt_at) : null,
    lastStatusCode: r.last_status_code,
    lastError: r.last_error,
    createdAt: iso(r.created_at)!,
    updatedAt: iso(r.updated_at)!,
    deliveredAt: iso(r.delivered_at),
    attempts: by.get(r.id) ?? [],
  }));
}
