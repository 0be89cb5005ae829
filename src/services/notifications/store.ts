/**
 * The notification service's storage: API key hashes, webhook registrations, events (their exact
 * bytes) and the delivery outbox with every attempt. SQLite (WAL) through better-sqlite3.
 *
 * Outbox rules (crash safety):
 * - an event and its deliveries are written in one transaction;
 * - starting an attempt writes an attempt row and leases the delivery (next_attempt_at moves past
 *   the timeout) in one transaction; finishing writes the result and the next state in another;
 * - on start-up, attempts left open by a crash are marked interrupted (not counted against the 5)
 *   and their deliveries become due at once. So nothing is lost and nothing is marked delivered
 *   that did not get a 2xx.
 */
import Database from 'better-sqlite3';
import { createHash, randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { ALL_EVENTS, type Envelope } from '../../webhooks/envelope.js';
import { MAX_ATTEMPTS, nextAttemptAfterFailure } from '../../webhooks/schedule.js';
import type { AttemptResult } from '../../webhooks/send.js';

import type { Attempt, Delivery, DeliveryStatus, Webhook } from '../../webhooks/api.js';
export { DELIVERY_STATUSES } from '../../webhooks/api.js';
export type { Attempt, Delivery, DeliveryStatus, Webhook };

export interface WebhookWithSecret extends Webhook {
  secret: string;
}

export interface StoredEventInfo {
  id: string;
  type: string;
  timestamp: string;
  createdAt: string;
  data: Record<string, unknown>;
}

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

interface DeliveryRow {
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

interface WebhookRow {
  id: string;
  url: string;
  events: string;
  secret: string;
  description: string | null;
  status: string | null;
  failed_at: number | null;
  created_at: number;
  updated_at: number;
}

const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());
const randomId = (prefix: string, bytes: number) => `${prefix}_${randomBytes(bytes).toString('hex')}`;
export const hashApiKey = (key: string) => createHash('sha256').update(key, 'utf8').digest('hex');

/** What `ops serve key list` shows of a key: its first 8 characters, the rest masked. */
export const maskApiKey = (key: string) => `${key.slice(0, Math.min(8, Math.floor(key.length / 2)))}…`;

export interface ApiKeyInfo {
  id: number;
  name: string;
  /** the first characters of the key, masked ("ntf_AbCd…") */
  prefix: string;
  created_at: string;
  last_used_at: string | null;
}

export class NotifyStore {
  readonly db: Database.Database;
  private webhookCache: WebhookWithSecret[] | null = null;
  private readonly stmts;

  constructor(dir: string, file = 'notifications.db') {
    this.db = new Database(dir === ':memory:' ? ':memory:' : join(dir, file));
    this.db.pragma('journal_mode = WAL');
    this.db.pragma('synchronous = NORMAL');
    this.db.pragma('busy_timeout = 5000');
    this.db.pragma('foreign_keys = ON');
    this.migrate();
    this.stmts = {
      dueForWebhook: this.db.prepare(`
        SELECT d.id, d.event_id, d.webhook_id, d.attempts, e.type AS event_type, e.body
        FROM deliveries d JOIN events e ON e.id = d.event_id
        WHERE d.webhook_id = ? AND d.status = 'pending' AND d.next_attempt_at <= ?
        ORDER BY d.next_attempt_at, d.rowid LIMIT ?`),
      insertAttempt: this.db.prepare('INSERT INTO attempts (delivery_id, n, started_at) VALUES (?, ?, ?)'),
      leaseDelivery: this.db.prepare(
        'UPDATE deliveries SET inflight_attempt = ?, next_attempt_at = ?, url = ?, updated_at = ? WHERE id = ?',
      ),
      finishAttempt: this.db.prepare(
        'UPDATE attempts SET finished_at = ?, duration_ms = ?, status_code = ?, error = ?, response_excerpt = ?, outcome = ? WHERE id = ?',
      ),
      getDeliveryRow: this.db.prepare(
        'SELECT d.*, e.type AS event_type FROM deliveries d JOIN events e ON e.id = d.event_id WHERE d.id = ?',
      ),
      nextDueFor: this.db.prepare(
        "SELECT MIN(next_attempt_at) AS t FROM deliveries WHERE webhook_id = ? AND status = 'pending'",
      ),
      insertEvent: this.db.prepare(
        'INSERT INTO events (id, type, timestamp, body, created_at) VALUES (?, ?, ?, ?, ?)',
      ),
      insertDelivery: this.db.prepare(`
        INSERT INTO deliveries (id, event_id, webhook_id, url, status, attempts, series_base, next_attempt_at, created_at, updated_at)
        VALUES (?, ?, ?, ?, 'pending', 0, 0, ?, ?, ?)`),
      deliveryState: this.db.prepare('SELECT status, attempts, series_base, inflight_attempt, webhook_id FROM deliveries WHERE id = ?'),
      markWebhookFailed: this.db.prepare("UPDATE webhooks SET status = 'failed', failed_at = ? WHERE id = ?"),
      markWebhookActive: this.db.prepare("UPDATE webhooks SET status = 'active', failed_at = NULL WHERE id = ?"),
      releaseInterrupted: this.db.prepare('UPDATE deliveries SET inflight_attempt = NULL, next_attempt_at = ?, updated_at = ? WHERE id = ?'),
      markDelivered: this.db.prepare(
        "UPDATE deliveries SET status = 'delivered', attempts = ?, inflight_attempt = NULL, next_attempt_at = NULL, last_status_code = ?, last_error = NULL, updated_at = ?, delivered_at = ? WHERE id = ?",
      ),
      markFailedAttempt: this.db.prepare(
        'UPDATE deliveries SET status = ?, attempts = ?, inflight_attempt = NULL, next_attempt_at = ?, last_status_code = ?, last_error = ?, updated_at = ? WHERE id = ?',
      ),
    };
    this.enqueueTx = this.db.transaction((env: Envelope<unknown>, body: Buffer, now: number, subs: WebhookWithSecret[]) =>
      this.insertEventRows(env, body, now, subs),
    );
    this.enqueueManyTx = this.db.transaction((items: { envelope: Envelope<unknown>; body: Buffer }[], now: number) => {
      let n = 0;
      for (const it of items) n += this.insertEventRows(it.envelope, it.body, now, this.subscribersOf(it.envelope.type)).length;
      return n;
    });
    this.takeDueTx = this.db.transaction((w: WebhookWithSecret, now: number, limit: number, leaseUntil: number): DueDelivery[] => {
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
    this.finishManyTx = this.db.transaction((items: FinishedAttempt[], retryScale: number) =>
      items.map((it) => this.finishOne(it, retryScale)),
    );
  }

  private readonly enqueueManyTx: (items: { envelope: Envelope<unknown>; body: Buffer }[], now: number) => number;
  private readonly enqueueTx: (env: Envelope<unknown>, body: Buffer, now: number, subs: WebhookWithSecret[]) => string[];
  private readonly takeDueTx: (w: WebhookWithSecret, now: number, limit: number, leaseUntil: number) => DueDelivery[];
  private readonly finishManyTx: (items: FinishedAttempt[], retryScale: number) => (DeliveryStatus | undefined)[];

  private migrate(): void {
    this.db.exec(`
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
    // Added after the first release: a webhook is marked failed when a delivery to it fails.
    const cols = (this.db.prepare('PRAGMA table_info(webhooks)').all() as { name: string }[]).map((c) => c.name);
    if (!cols.includes('status')) this.db.exec("ALTER TABLE webhooks ADD COLUMN status TEXT NOT NULL DEFAULT 'active'");
    if (!cols.includes('failed_at')) this.db.exec('ALTER TABLE webhooks ADD COLUMN failed_at INTEGER');
    this.migrateApiKeys();
  }

  /**
   * Added with `ops serve key`: a name, a masked prefix and the last use of each key. A key stored in
   * plaintext by an older install (anything but 64 hex digits) is replaced by its hash here, so it
   * keeps working and is no longer readable.
   */
  private migrateApiKeys(): void {
    const cols = (this.db.prepare('PRAGMA table_info(api_keys)').all() as { name: string }[]).map((c) => c.name);
    if (!cols.includes('name')) {
      this.db.exec("ALTER TABLE api_keys ADD COLUMN name TEXT NOT NULL DEFAULT 'local'");
      // Before `ops serve key`, the only key ever generated was the first (created on first start,
      // before any other); the later rows are OPS_NOTIFY_API_KEY values that were stored: forget them.
      this.db.exec('DELETE FROM api_keys WHERE id > (SELECT min(id) FROM api_keys)');
    }
    if (!cols.includes('prefix')) this.db.exec('ALTER TABLE api_keys ADD COLUMN prefix TEXT');
    if (!cols.includes('last_used_at')) this.db.exec('ALTER TABLE api_keys ADD COLUMN last_used_at INTEGER');
    const plain = (this.db.prepare('SELECT id, hash FROM api_keys').all() as { id: number; hash: string }[]).filter((r) => !/^[0-9a-f]{64}$/.test(r.hash));
    if (plain.length === 0) return;
    const update = this.db.prepare('UPDATE OR IGNORE api_keys SET hash = ?, prefix = coalesce(prefix, ?) WHERE id = ?');
    this.db.transaction(() => {
      for (const r of plain) update.run(hashApiKey(r.hash), maskApiKey(r.hash), r.id);
    })();
  }

  close(): void {
    if (this.db.open) this.db.close();
  }

  // ---- API keys ----------------------------------------------------------------------------

  hasApiKey(): boolean {
    return this.db.prepare('SELECT 1 FROM api_keys LIMIT 1').get() !== undefined;
  }

  /** Creates a new API key; returns the plaintext (only its hash and a masked prefix are stored). */
  createApiKey(now: number, name = 'local'): { id: number; key: string } {
    const key = `ntf_${randomBytes(24).toString('base64url')}`;
    const r = this.db.prepare('INSERT INTO api_keys (hash, created_at, name, prefix) VALUES (?, ?, ?, ?)').run(hashApiKey(key), now, name, maskApiKey(key));
    return { id: Number(r.lastInsertRowid), key };
  }

  /** The stored keys, oldest first (never their values). */
  listApiKeys(): ApiKeyInfo[] {
    const rows = this.db.prepare('SELECT id, name, prefix, created_at, last_used_at FROM api_keys ORDER BY id').all() as {
      id: number;
      name: string;
      prefix: string | null;
      created_at: number;
      last_used_at: number | null;
    }[];
    return rows.map((r) => ({ id: r.id, name: r.name, prefix: r.prefix ?? 'ntf_…', created_at: iso(r.created_at)!, last_used_at: iso(r.last_used_at) }));
  }

  /** Deletes a key; false when there is no key with that id. */
  revokeApiKey(id: number): boolean {
    return this.db.prepare('DELETE FROM api_keys WHERE id = ?').run(id).changes > 0;
  }

  /** The id of the stored key matching a presented key, or null. Marks its last use (at most once a minute). */
  useApiKey(key: string, now: number): number | null {
    const row = this.db.prepare('SELECT id, last_used_at FROM api_keys WHERE hash = ?').get(hashApiKey(key)) as { id: number; last_used_at: number | null } | undefined;
    if (!row) return null;
    if (row.last_used_at === null || now - row.last_used_at >= 60_000) this.db.prepare('UPDATE api_keys SET last_used_at = ? WHERE id = ?').run(now, row.id);
    return row.id;
  }

  // ---- webhooks ----------------------------------------------------------------------------

  private toWebhook(r: WebhookRow): WebhookWithSecret {
    return {
      id: r.id,
      url: r.url,
      events: JSON.parse(r.events) as string[],
      description: r.description,
      status: r.status === 'failed' ? 'failed' : 'active',
      failedAt: r.status === 'failed' ? iso(r.failed_at) : null,
      secret: r.secret,
      createdAt: iso(r.created_at)!,
      updatedAt: iso(r.updated_at)!,
    };
  }

  private allWebhooks(): WebhookWithSecret[] {
    if (!this.webhookCache) {
      const rows = this.db.prepare('SELECT * FROM webhooks ORDER BY created_at, rowid').all() as WebhookRow[];
      this.webhookCache = rows.map((r) => this.toWebhook(r));
    }
    return this.webhookCache;
  }

  createWebhook(input: { url: string; events: string[]; secret: string; description?: string | null }, now: number): WebhookWithSecret {
    const id = randomId('wh', 8);
    this.db
      .prepare('INSERT INTO webhooks (id, url, events, secret, description, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)')
      .run(id, input.url, JSON.stringify(input.events), input.secret, input.description ?? null, now, now);
    this.webhookCache = null;
    return this.getWebhook(id)!;
  }

  listWebhooks(): WebhookWithSecret[] {
    return [...this.allWebhooks()];
  }

  getWebhook(id: string): WebhookWithSecret | undefined {
    return this.allWebhooks().find((w) => w.id === id);
  }

  updateWebhook(
    id: string,
    patch: { url?: string; events?: string[]; secret?: string; description?: string | null },
    now: number,
  ): WebhookWithSecret | undefined {
    const cur = this.getWebhook(id);
    if (!cur) return undefined;
    const next = {
      url: patch.url ?? cur.url,
      events: patch.events ?? cur.events,
      secret: patch.secret ?? cur.secret,
      description: patch.description !== undefined ? patch.description : cur.description,
    };
    this.db
      .prepare('UPDATE webhooks SET url = ?, events = ?, secret = ?, description = ?, updated_at = ? WHERE id = ?')
      .run(next.url, JSON.stringify(next.events), next.secret, next.description, now, id);
    this.webhookCache = null;
    return this.getWebhook(id);
  }

  /** Deletes a webhook; its pending deliveries end as failed ("webhook deleted"). */
  deleteWebhook(id: string, now: number): boolean {
    const tx = this.db.transaction(() => {
      const n = this.db.prepare('DELETE FROM webhooks WHERE id = ?').run(id).changes;
      if (n > 0) {
        this.db
          .prepare(
            "UPDATE deliveries SET status = 'failed', last_error = 'webhook deleted', next_attempt_at = NULL, updated_at = ? WHERE webhook_id = ? AND status = 'pending'",
          )
          .run(now, id);
      }
      return n > 0;
    });
    const ok = tx();
    this.webhookCache = null;
    return ok;
  }

  webhookIds(): string[] {
    return this.allWebhooks().map((w) => w.id);
  }

  subscribersOf(type: string): WebhookWithSecret[] {
    return this.allWebhooks().filter((w) => w.events.includes(type) || w.events.includes(ALL_EVENTS));
  }

  // ---- events and the outbox ---------------------------------------------------------------

  /** Stores an event and one pending delivery per subscribed webhook, due now. */
  enqueueEvent(env: Envelope<unknown>, body: Buffer, now: number): { deliveryIds: string[] } {
    return { deliveryIds: this.enqueueTx(env, body, now, this.subscribersOf(env.type)) };
  }

  /** enqueueEvent for several events in one transaction; returns the number of deliveries. */
  enqueueMany(items: { envelope: Envelope<unknown>; body: Buffer }[], now: number): number {
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

  /** Runs fn in one transaction (nested calls become savepoints of it). */
  atomically<T>(fn: () => T): T {
    try {
      return this.db.transaction(fn)();
    } catch (err) {
      this.webhookCache = null; // it may hold a rolled-back change
      throw err;
    }
  }

  getEvent(id: string): StoredEventInfo | undefined {
    const r = this.db.prepare('SELECT * FROM events WHERE id = ?').get(id) as
      | { id: string; type: string; timestamp: string; body: Buffer; created_at: number }
      | undefined;
    return r && this.toEventInfo(r);
  }

  listEvents(q: { type?: string; limit?: number; offset?: number } = {}): { data: StoredEventInfo[]; total: number } {
    const where = q.type ? 'WHERE type = ?' : '';
    const args = q.type ? [q.type] : [];
    const total = (this.db.prepare(`SELECT count(*) AS n FROM events ${where}`).get(...args) as { n: number }).n;
    const rows = this.db
      .prepare(`SELECT * FROM events ${where} ORDER BY rowid DESC LIMIT ? OFFSET ?`)
      .all(...args, q.limit ?? 50, q.offset ?? 0) as { id: string; type: string; timestamp: string; body: Buffer; created_at: number }[];
    return { data: rows.map((r) => this.toEventInfo(r)), total };
  }

  private toEventInfo(r: { id: string; type: string; timestamp: string; body: Buffer; created_at: number }): StoredEventInfo {
    let data: Record<string, unknown> = {};
    try {
      data = (JSON.parse(r.body.toString('utf8')) as { data?: Record<string, unknown> }).data ?? {};
    } catch {
      /* stored bytes are always our own JSON */
    }
    return { id: r.id, type: r.type, timestamp: r.timestamp, createdAt: iso(r.created_at)!, data };
  }

  /**
   * Leases up to `limit` due deliveries of one webhook: each gets an open attempt row and its
   * next_attempt_at moved to `leaseUntil`, in one transaction.
   */
  takeDue(webhookId: string, now: number, limit: number, leaseUntil: number): DueDelivery[] {
    const w = this.getWebhook(webhookId);
    if (!w || limit <= 0) return [];
    return this.takeDueTx(w, now, limit, leaseUntil);
  }

  /**
   * Records an attempt's result and moves the delivery on: delivered on a 2xx, otherwise pending
   * with the next scheduled time, or failed after the 5th failure of the current series. An
   * `interrupted` attempt (shutdown) is kept but not counted, and the delivery is due again at once.
   */
  finishAttempt(
    d: { id: string; attemptId: number },
    result: AttemptResult,
    now: number,
    retryScale: number,
    interrupted = false,
  ): DeliveryStatus | undefined {
    return this.finishMany([{ delivery: d, result, now, interrupted }], retryScale)[0];
  }

  /** finishAttempt for many attempts in one transaction (the worker's group commit). */
  finishMany(items: FinishedAttempt[], retryScale: number): (DeliveryStatus | undefined)[] {
    if (!items.length) return [];
    try {
      return this.finishManyTx(items, retryScale);
    } catch (err) {
      this.webhookCache = null; // it may hold a rolled-back change
      throw err;
    }
  }

  private finishOne({ delivery: d, result, now, interrupted }: FinishedAttempt, retryScale: number): DeliveryStatus | undefined {
    const outcome = interrupted ? 'interrupted' : result.ok ? 'success' : 'failure';
    this.stmts.finishAttempt.run(
      now,
      result.durationMs,
      result.statusCode,
      interrupted ? 'interrupted: the service stopped during this attempt' : result.error,
      result.responseExcerpt || null,
      outcome,
      d.attemptId,
    );
    const row = this.stmts.deliveryState.get(d.id) as
      | { status: DeliveryStatus; attempts: number; series_base: number; inflight_attempt: number | null; webhook_id: string }
      | undefined;
    if (!row) return undefined;
    if (row.status !== 'pending' || row.inflight_attempt !== d.attemptId) return row.status;
    if (interrupted) {
      this.stmts.releaseInterrupted.run(now, now, d.id);
      return 'pending';
    }
    const attempts = row.attempts + 1;
    if (result.ok) {
      this.stmts.markDelivered.run(attempts, result.statusCode, now, now, d.id);
      // A webhook marked failed is active again once a delivery to it succeeds.
      if (this.getWebhook(row.webhook_id)?.status === 'failed') {
        this.stmts.markWebhookActive.run(row.webhook_id);
        this.webhookCache = null;
      }
      return 'delivered';
    }
    const lastError = result.error ?? `HTTP ${result.statusCode}`;
    const next = nextAttemptAfterFailure(attempts - row.series_base, now, retryScale);
    const status: DeliveryStatus = next === null ? 'failed' : 'pending';
    this.stmts.markFailedAttempt.run(status, attempts, next, result.statusCode, lastError, now, d.id);
    if (status === 'failed') {
      // The description: after the 5th failed attempt "the webhook is marked failed".
      this.stmts.markWebhookFailed.run(now, row.webhook_id);
      this.webhookCache = null;
    }
    return status;
  }

  /** After a crash: close attempts left open (interrupted) and make their deliveries due now. */
  recoverInterrupted(now: number): number {
    const tx = this.db.transaction(() => {
      this.db
        .prepare(
          "UPDATE attempts SET outcome = 'interrupted', finished_at = ?, error = 'interrupted: the service stopped during this attempt' WHERE outcome IS NULL",
        )
        .run(now);
      return this.db
        .prepare(
          "UPDATE deliveries SET inflight_attempt = NULL, next_attempt_at = ?, updated_at = ? WHERE inflight_attempt IS NOT NULL AND status = 'pending'",
        )
        .run(now, now).changes;
    });
    return tx();
  }

  /** Earliest next_attempt_at among a webhook's pending deliveries (null if none). */
  nextDueFor(webhookId: string): number | null {
    return (this.stmts.nextDueFor.get(webhookId) as { t: number | null }).t;
  }

  /** Queues a delivery again: a fresh series of 5 attempts, the first one now. */
  redeliver(id: string, now: number): { ok: true; delivery: Delivery } | { ok: false; code: 404 | 409; message: string } {
    const tx = this.db.transaction(() => {
      const row = this.stmts.getDeliveryRow.get(id) as DeliveryRow | undefined;
      if (!row) return { ok: false as const, code: 404 as const, message: `no delivery ${id}` };
      if (!this.getWebhook(row.webhook_id)) {
        return { ok: false as const, code: 409 as const, message: `the webhook ${row.webhook_id} of this delivery was deleted` };
      }
      if (row.status === 'pending' && row.inflight_attempt !== null) {
        return { ok: false as const, code: 409 as const, message: 'an attempt of this delivery is in progress' };
      }
      // Pending (waiting for a retry), delivered or failed alike: a fresh series, due now.
      this.db
        .prepare(
          "UPDATE deliveries SET status = 'pending', series_base = attempts, next_attempt_at = ?, delivered_at = NULL, updated_at = ? WHERE id = ?",
        )
        .run(now, now, id);
      return { ok: true as const, delivery: this.getDelivery(id)! };
    });
    return tx();
  }

  getDelivery(id: string): Delivery | undefined {
    const row = this.stmts.getDeliveryRow.get(id) as DeliveryRow | undefined;
    if (!row) return undefined;
    return this.withAttempts([row])[0];
  }

  /** Deliveries, failed first, then pending, then delivered; newest first within each. */
  listDeliveries(q: { status?: DeliveryStatus; webhookId?: string; eventId?: string; type?: string; limit?: number; offset?: number } = {}): {
    data: Delivery[];
    total: number;
  } {
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
    const total = (this.db.prepare(`SELECT count(*) AS n FROM deliveries d JOIN events e ON e.id = d.event_id ${w}`).get(...args) as { n: number }).n;
    const rows = this.db
      .prepare(
        `SELECT d.*, e.type AS event_type FROM deliveries d JOIN events e ON e.id = d.event_id ${w}
         ORDER BY CASE d.status WHEN 'failed' THEN 0 WHEN 'pending' THEN 1 ELSE 2 END, d.created_at DESC, d.rowid DESC
         LIMIT ? OFFSET ?`,
      )
      .all(...args, q.limit ?? 50, q.offset ?? 0) as DeliveryRow[];
    return { data: this.withAttempts(rows), total };
  }

  countsByStatus(): Record<DeliveryStatus, number> {
    const out: Record<DeliveryStatus, number> = { pending: 0, delivered: 0, failed: 0 };
    for (const r of this.db.prepare('SELECT status, count(*) AS n FROM deliveries GROUP BY status').all() as {
      status: DeliveryStatus;
      n: number;
    }[]) {
      out[r.status] = r.n;
    }
    return out;
  }

  private withAttempts(rows: DeliveryRow[]): Delivery[] {
    if (rows.length === 0) return [];
    const ids = rows.map((r) => r.id);
    const attempts = this.db
      .prepare(`SELECT * FROM attempts WHERE delivery_id IN (${ids.map(() => '?').join(',')}) ORDER BY id`)
      .all(...ids) as AttemptRow[];
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
}

export { MAX_ATTEMPTS };
