/**
 * The delivery outbox: every write to events, deliveries and attempts, and the transactions that keep
 * it crash safe. Reads are in events.ts and deliveries.ts.
 *
 * Rules (crash safety):
 * - an event and its deliveries (one per subscribed webhook, due now) are written in one transaction;
 * - starting an attempt writes an attempt row and leases the delivery (next_attempt_at moves past
 *   the timeout) in one transaction; finishing writes the result and the next state in another
 *   (several finished attempts share one: the worker's group commit);
 * - an attempt counts only when it finishes while it still holds its delivery's lease; a 2xx makes
 *   the delivery delivered, anything else schedules the next attempt or, after the 5th failure of
 *   the current series, fails the delivery and marks its webhook failed, in the same transaction;
 * - on start-up, attempts left open by a crash are marked interrupted (not counted against the 5)
 *   and their deliveries become due at once; an attempt cut off by shutdown is kept the same way.
 *   So nothing is lost and nothing is marked delivered that did not get a 2xx;
 * - redelivering starts a fresh series of 5 (never while an attempt is in flight); deleting a
 *   webhook fails its pending deliveries ("webhook deleted") in the transaction that deletes it;
 * - a transaction that throws is rolled back whole, and the webhook cache is dropped with it.
 */
import type { Envelope } from '../../../webhooks/envelope.js';
import { nextAttemptAfterFailure } from '../../../webhooks/schedule.js';
import type { AttemptResult } from '../../../webhooks/send.js';
import type { Delivery, DeliveryStatus } from '../../../wire/notifications.js';
import type { DB } from './db.js';
import { randomId } from './rows.js';
import { DELIVERY_ROW_SQL, getDelivery, type DeliveryRow } from './deliveries.js';
import type { Webhooks, WebhookWithSecret } from './webhooks.js';

export interface FinishedAttempt {
  delivery: { id: string; attemptId: number };
  result: AttemptResult;
  now: number;
  /** cut off by shutdown: kept but not counted */
  interrupted?: boolean;
}

/** A delivery ready for an attempt, with what is needed to send it. */
export interface DueDelivery {
  id: string;
  eventId: string;
  eventType: string;
  webhookId: string;
  url: string;
  secret: string;
  body: Buffer;
  /** Ordinal of the attempt about to start (1-based, over the delivery's whole life). */
  n: number;
  attemptId: number;
}

export interface EventToStore {
  envelope: Envelope<unknown>;
  body: Buffer;
}

export type RedeliverResult = { ok: true; delivery: Delivery } | { ok: false; code: 404 | 409; message: string };

const INTERRUPTED = 'interrupted: the service stopped during this attempt';

export class Outbox {
  private readonly stmts;
  private readonly enqueueTx: (env: Envelope<unknown>, body: Buffer, now: number, subs: WebhookWithSecret[]) => string[];
  private readonly enqueueManyTx: (items: EventToStore[], now: number) => number;
  private readonly takeDueTx: (w: WebhookWithSecret, now: number, limit: number, leaseUntil: number) => DueDelivery[];
  private readonly finishManyTx: (items: FinishedAttempt[], retryScale: number) => (DeliveryStatus | undefined)[];

  constructor(
    private readonly db: DB,
    private readonly webhooks: Webhooks,
  ) {
    this.stmts = {
      dueForWebhook: db.prepare(`
        SELECT d.id, d.event_id, d.webhook_id, d.attempts, e.type AS event_type, e.body
        FROM deliveries d JOIN events e ON e.id = d.event_id
        WHERE d.webhook_id = ? AND d.status = 'pending' AND d.next_attempt_at <= ?
        ORDER BY d.next_attempt_at, d.rowid LIMIT ?`),
      insertAttempt: db.prepare('INSERT INTO attempts (delivery_id, n, started_at) VALUES (?, ?, ?)'),
      leaseDelivery: db.prepare('UPDATE deliveries SET inflight_attempt = ?, next_attempt_at = ?, url = ?, updated_at = ? WHERE id = ?'),
      finishAttempt: db.prepare('UPDATE attempts SET finished_at = ?, duration_ms = ?, status_code = ?, error = ?, response_excerpt = ?, outcome = ? WHERE id = ?'),
      getDeliveryRow: db.prepare(DELIVERY_ROW_SQL),
      nextDueFor: db.prepare("SELECT MIN(next_attempt_at) AS t FROM deliveries WHERE webhook_id = ? AND status = 'pending'"),
      insertEvent: db.prepare('INSERT INTO events (id, type, timestamp, body, created_at) VALUES (?, ?, ?, ?, ?)'),
      insertDelivery: db.prepare(`
        INSERT INTO deliveries (id, event_id, webhook_id, url, status, attempts, series_base, next_attempt_at, created_at, updated_at)
        VALUES (?, ?, ?, ?, 'pending', 0, 0, ?, ?, ?)`),
      deliveryState: db.prepare('SELECT status, attempts, series_base, inflight_attempt, webhook_id FROM deliveries WHERE id = ?'),
      releaseInterrupted: db.prepare('UPDATE deliveries SET inflight_attempt = NULL, next_attempt_at = ?, updated_at = ? WHERE id = ?'),
      markDelivered: db.prepare(
        "UPDATE deliveries SET status = 'delivered', attempts = ?, inflight_attempt = NULL, next_attempt_at = NULL, last_status_code = ?, last_error = NULL, updated_at = ?, delivered_at = ? WHERE id = ?",
      ),
      markFailedAttempt: db.prepare('UPDATE deliveries SET status = ?, attempts = ?, inflight_attempt = NULL, next_attempt_at = ?, last_status_code = ?, last_error = ?, updated_at = ? WHERE id = ?'),
    };
    this.enqueueTx = db.transaction((env: Envelope<unknown>, body: Buffer, now: number, subs: WebhookWithSecret[]) => this.insertEventRows(env, body, now, subs));
    this.enqueueManyTx = db.transaction((items: EventToStore[], now: number) => {
      let n = 0;
      for (const it of items) n += this.insertEventRows(it.envelope, it.body, now, this.webhooks.subscribersOf(it.envelope.type)).length;
      return n;
    });
    this.takeDueTx = db.transaction((w: WebhookWithSecret, now: number, limit: number, leaseUntil: number): DueDelivery[] => {
      const rows = this.stmts.dueForWebhook.all(w.id, now, limit) as {
        id: string;
        event_id: string;
        webhook_id: string;
        attempts: number;
        event_type: string;
        body: Buffer;
      }[];
      return rows.map((r) => {
        const n = r.attempts + 1;
        const attemptId = Number(this.stmts.insertAttempt.run(r.id, n, now).lastInsertRowid);
        this.stmts.leaseDelivery.run(attemptId, leaseUntil, w.url, now, r.id);
        return { id: r.id, eventId: r.event_id, eventType: r.event_type, webhookId: r.webhook_id, url: w.url, secret: w.secret, body: r.body, n, attemptId };
      });
    });
    this.finishManyTx = db.transaction((items: FinishedAttempt[], retryScale: number) => items.map((it) => this.finishOne(it, retryScale)));
  }

  /** Runs fn in one transaction (nested calls become savepoints of it). */
  atomically<T>(fn: () => T): T {
    try {
      return this.db.transaction(fn)();
    } catch (err) {
      this.webhooks.forget(); // it may hold a rolled-back change
      throw err;
    }
  }

  /** Stores an event and one pending delivery per subscribed webhook, due now. */
  enqueueEvent(env: Envelope<unknown>, body: Buffer, now: number): { deliveryIds: string[] } {
    return { deliveryIds: this.enqueueTx(env, body, now, this.webhooks.subscribersOf(env.type)) };
  }

  /** enqueueEvent for several events in one transaction; returns the number of deliveries. */
  enqueueMany(items: EventToStore[], now: number): number {
    return items.length ? this.enqueueManyTx(items, now) : 0;
  }

  private insertEventRows(env: Envelope<unknown>, body: Buffer, now: number, subs: WebhookWithSecret[]): string[] {
    this.stmts.insertEvent.run(env.id, env.type, env.timestamp, body, now);
    const ids: string[] = [];
    for (const w of subs) {
      const id = randomId('dlv', 10);
      this.stmts.insertDelivery.run(id, env.id, w.id, w.url, now, now, now);
      ids.push(id);
    }
    return ids;
  }

  /**
   * Leases up to `limit` due deliveries of one webhook: each gets an open attempt row and its
   * next_attempt_at moved to `leaseUntil`, in one transaction.
   */
  takeDue(webhookId: string, now: number, limit: number, leaseUntil: number): DueDelivery[] {
    const w = this.webhooks.get(webhookId);
    if (!w || limit <= 0) return [];
    return this.takeDueTx(w, now, limit, leaseUntil);
  }

  /** Several finished attempts in one transaction (the worker's group commit); see finishOne. */
  finishMany(items: FinishedAttempt[], retryScale: number): (DeliveryStatus | undefined)[] {
    if (!items.length) return [];
    try {
      return this.finishManyTx(items, retryScale);
    } catch (err) {
      this.webhooks.forget(); // it may hold a rolled-back change
      throw err;
    }
  }

  /**
   * Records an attempt's result and moves the delivery on: delivered on a 2xx, otherwise pending
   * with the next scheduled time, or failed after the 5th failure of the current series. An
   * `interrupted` attempt (shutdown) is kept but not counted, and the delivery is due again at once.
   */
  private finishOne({ delivery: d, result, now, interrupted }: FinishedAttempt, retryScale: number): DeliveryStatus | undefined {
    const outcome = interrupted ? 'interrupted' : result.ok ? 'success' : 'failure';
    this.stmts.finishAttempt.run(now, result.durationMs, result.statusCode, interrupted ? INTERRUPTED : result.error, result.responseExcerpt || null, outcome, d.attemptId);
    const row = this.stmts.deliveryState.get(d.id) as { status: DeliveryStatus; attempts: number; series_base: number; inflight_attempt: number | null; webhook_id: string } | undefined;
    if (!row) return undefined;
    if (row.status !== 'pending' || row.inflight_attempt !== d.attemptId) return row.status;
    if (interrupted) {
      this.stmts.releaseInterrupted.run(now, now, d.id);
      return 'pending';
    }
    const attempts = row.attempts + 1;
    if (result.ok) {
      this.stmts.markDelivered.run(attempts, result.statusCode, now, now, d.id);
      this.webhooks.markActive(row.webhook_id);
      return 'delivered';
    }
    const lastError = result.error ?? `HTTP ${result.statusCode}`;
    const next = nextAttemptAfterFailure(attempts - row.series_base, now, retryScale);
    const status: DeliveryStatus = next === null ? 'failed' : 'pending';
    this.stmts.markFailedAttempt.run(status, attempts, next, result.statusCode, lastError, now, d.id);
    if (status === 'failed') this.webhooks.markFailed(row.webhook_id, now);
    return status;
  }

  /** After a crash: close attempts left open (interrupted) and make their deliveries due now. */
  recoverInterrupted(now: number): number {
    const tx = this.db.transaction(() => {
      this.db.prepare("UPDATE attempts SET outcome = 'interrupted', finished_at = ?, error = ? WHERE outcome IS NULL").run(now, INTERRUPTED);
      return this.db.prepare("UPDATE deliveries SET inflight_attempt = NULL, next_attempt_at = ?, updated_at = ? WHERE inflight_attempt IS NOT NULL AND status = 'pending'").run(now, now).changes;
    });
    return tx();
  }

  /** Earliest next_attempt_at among a webhook's pending deliveries (null if none). */
  nextDueFor(webhookId: string): number | null {
    return (this.stmts.nextDueFor.get(webhookId) as { t: number | null }).t;
  }

  /** Queues a delivery again: a fresh series of 5 attempts, the first one now. */
  redeliver(id: string, now: number): RedeliverResult {
    const tx = this.db.transaction((): RedeliverResult => {
      const row = this.stmts.getDeliveryRow.get(id) as DeliveryRow | undefined;
      if (!row) return { ok: false, code: 404, message: `no delivery ${id}` };
      if (!this.webhooks.get(row.webhook_id)) return { ok: false, code: 409, message: `the webhook ${row.webhook_id} of this delivery was deleted` };
      if (row.status === 'pending' && row.inflight_attempt !== null) return { ok: false, code: 409, message: 'an attempt of this delivery is in progress' };
      // Pending (waiting for a retry), delivered or failed alike: a fresh series, due now.
      this.db.prepare("UPDATE deliveries SET status = 'pending', series_base = attempts, next_attempt_at = ?, delivered_at = NULL, updated_at = ? WHERE id = ?").run(now, now, id);
      return { ok: true, delivery: getDelivery(this.db, id)! };
    });
    return tx();
  }

  /** Deletes a webhook; its pending deliveries end as failed ("webhook deleted"), in the same transaction. */
  dropWebhook(id: string, now: number): boolean {
    try {
      return this.db.transaction(() => {
        if (!this.webhooks.remove(id)) return false;
        this.db.prepare("UPDATE deliveries SET status = 'failed', last_error = 'webhook deleted', next_attempt_at = NULL, updated_at = ? WHERE webhook_id = ? AND status = 'pending'").run(now, id);
        return true;
      })();
    } finally {
      this.webhooks.forget();
    }
  }
}
