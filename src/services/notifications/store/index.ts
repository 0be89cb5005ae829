/**
 * The notification service's storage, one object over its modules: the database and its migrations
 * (db.ts), API key hashes (keys.ts), webhook registrations (webhooks.ts), events (events.ts), the
 * delivery outbox with every attempt (outbox.ts, where the crash-safety rules are) and the read
 * side of deliveries (deliveries.ts). SQLite (WAL) through better-sqlite3.
 */
import type { Envelope } from '../../../webhooks/envelope.js';
import { MAX_ATTEMPTS } from '../../../webhooks/schedule.js';
import type { AttemptResult } from '../../../webhooks/send.js';
import type { Attempt, Delivery, DeliveryQuery, DeliveryStatus, Webhook } from '../../../wire/notifications.js';
import { openNotifyDb, DB_FILE, type DB } from './db.js';
import * as keys from './keys.js';
import { STORE_SYNCHRONOUS, type OpenStoreOptions } from '../../store-guard.js';
import { Webhooks, type WebhookInput, type WebhookPatch, type WebhookWithSecret } from './webhooks.js';
import { getEvent, listEvents, type StoredEventInfo } from './events.js';
import { countsByStatus, getDelivery, listDeliveries } from './deliveries.js';
import { Outbox, type DueDelivery, type EventToStore, type FinishedAttempt, type RedeliverResult } from './outbox.js';

export { DELIVERY_STATUSES } from '../../../wire/notifications.js';
export { hashApiKey, maskApiKey, type ApiKeyInfo } from './keys.js';
export type { Attempt, Delivery, DeliveryStatus, Webhook, WebhookWithSecret, StoredEventInfo, DueDelivery, FinishedAttempt };
export { MAX_ATTEMPTS };

export class NotifyStore {
  readonly db: DB;
  private readonly webhooks: Webhooks;
  private readonly outbox: Outbox;

  constructor(dir: string, file = DB_FILE, options: OpenStoreOptions = {}) {
    this.db = openNotifyDb(dir, file, options);
    this.webhooks = new Webhooks(this.db);
    this.outbox = new Outbox(this.db, this.webhooks);
  }

  /**
   * The delivery worker's own records (leases, attempts, a key's last use) commit with `synchronous =
   * NORMAL`: a power cut may forget the last of them, so an attempt is repeated (delivery is at least
   * once anyway), while every write the API acknowledges (events, webhooks, keys, redeliveries) commits
   * with the connection's FULL and survives a power cut. Nested in a transaction, fn follows it.
   */
  private bookkeeping<T>(fn: () => T): T {
    if (this.db.inTransaction || this.db.memory) return fn();
    this.db.pragma('synchronous = NORMAL');
    try {
      return fn();
    } finally {
      this.db.pragma(`synchronous = ${STORE_SYNCHRONOUS}`);
    }
  }

  close(): void {
    if (this.db.open) this.db.close();
  }

  // ---- API keys (keys.ts) ---------------------------------------------------------------------

  hasApiKey(): boolean {
    return keys.hasApiKey(this.db);
  }

  /** Creates a new API key; returns the plaintext (only its hash and a masked prefix are stored). */
  createApiKey(now: number, name = 'local'): { id: number; key: string } {
    return keys.createApiKey(this.db, now, name);
  }

  /** The stored keys, oldest first (never their values). */
  listApiKeys(): keys.ApiKeyInfo[] {
    return keys.listApiKeys(this.db);
  }

  /** Deletes a key; false when there is no key with that id. */
  revokeApiKey(id: number): boolean {
    return keys.revokeApiKey(this.db, id);
  }

  /** The id of the stored key matching a presented key, or null. Marks its last use (at most once a minute). */
  useApiKey(key: string, now: number): number | null {
    return this.bookkeeping(() => keys.useApiKey(this.db, key, now));
  }

  // ---- webhooks (webhooks.ts) -----------------------------------------------------------------

  createWebhook(input: WebhookInput, now: number): WebhookWithSecret {
    return this.webhooks.create(input, now);
  }

  listWebhooks(): WebhookWithSecret[] {
    return this.webhooks.list();
  }

  getWebhook(id: string): WebhookWithSecret | undefined {
    return this.webhooks.get(id);
  }

  updateWebhook(id: string, patch: WebhookPatch, now: number): WebhookWithSecret | undefined {
    return this.webhooks.update(id, patch, now);
  }

  /** Deletes a webhook; its pending deliveries end as failed ("webhook deleted"). */
  deleteWebhook(id: string, now: number): boolean {
    return this.outbox.dropWebhook(id, now);
  }

  webhookIds(): string[] {
    return this.webhooks.ids();
  }

  subscribersOf(type: string): WebhookWithSecret[] {
    return this.webhooks.subscribersOf(type);
  }

  // ---- events (events.ts) ---------------------------------------------------------------------

  getEvent(id: string): StoredEventInfo | undefined {
    return getEvent(this.db, id);
  }

  listEvents(q: { type?: string; limit?: number; offset?: number } = {}): { data: StoredEventInfo[]; total: number } {
    return listEvents(this.db, q);
  }

  // ---- the outbox (outbox.ts) -----------------------------------------------------------------

  /** Runs fn in one transaction (nested calls become savepoints of it). */
  atomically<T>(fn: () => T): T {
    return this.outbox.atomically(fn);
  }

  /** Stores an event and one pending delivery per subscribed webhook, due now. */
  enqueueEvent(env: Envelope<unknown>, body: Buffer, now: number): { deliveryIds: string[] } {
    return this.outbox.enqueueEvent(env, body, now);
  }

  /** enqueueEvent for several events in one transaction; returns the number of deliveries. */
  enqueueMany(items: EventToStore[], now: number): number {
    return this.outbox.enqueueMany(items, now);
  }

  /** Leases up to `limit` due deliveries of one webhook (see Outbox.takeDue). */
  takeDue(webhookId: string, now: number, limit: number, leaseUntil: number): DueDelivery[] {
    return this.bookkeeping(() => this.outbox.takeDue(webhookId, now, limit, leaseUntil));
  }

  /** Records one attempt's result and moves its delivery on (see Outbox.finishOne). */
  finishAttempt(d: { id: string; attemptId: number }, result: AttemptResult, now: number, retryScale: number, interrupted = false): DeliveryStatus | undefined {
    return this.bookkeeping(() => this.outbox.finishMany([{ delivery: d, result, now, interrupted }], retryScale)[0]);
  }

  /** finishAttempt for many attempts in one transaction (the worker's group commit). */
  finishMany(items: FinishedAttempt[], retryScale: number): (DeliveryStatus | undefined)[] {
    return this.bookkeeping(() => this.outbox.finishMany(items, retryScale));
  }

  /** After a crash: close attempts left open (interrupted) and make their deliveries due now. */
  recoverInterrupted(now: number): number {
    return this.outbox.recoverInterrupted(now);
  }

  /** Earliest next_attempt_at among a webhook's pending deliveries (null if none). */
  nextDueFor(webhookId: string): number | null {
    return this.outbox.nextDueFor(webhookId);
  }

  /** Queues a delivery again: a fresh series of 5 attempts, the first one now. */
  redeliver(id: string, now: number): RedeliverResult {
    return this.outbox.redeliver(id, now);
  }

  // ---- deliveries, read side (deliveries.ts) --------------------------------------------------

  getDelivery(id: string): Delivery | undefined {
    return getDelivery(this.db, id);
  }

  /** Deliveries, failed first, then pending, then delivered; newest first within each. */
  listDeliveries(q: DeliveryQuery = {}): { data: Delivery[]; total: number } {
    return listDeliveries(this.db, q);
  }

  countsByStatus(): Record<DeliveryStatus, number> {
    return countsByStatus(this.db);
  }
}
