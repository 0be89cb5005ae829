/**
 * The notification service's core, independent of HTTP: turns domain events and trigger calls
 * into envelopes and outbox entries, and owns the store and the delivery worker.
 */
import { randomBytes } from 'node:crypto';
import type { DomainEvent } from '../events.js';
import { createEnvelope, isEventType, samplePayload, serializeEnvelope, type Envelope, type EventType } from '../../webhooks/envelope.js';
import { systemClock, type Clock } from '../../webhooks/schedule.js';
import { NotifyStore } from './store/index.js';
import { DeliveryWorker } from './worker.js';
import type { FetchPolicy } from '../net/fetch-policy.js';
import type { OpenStoreOptions } from '../store-guard.js';

export interface NotifierOptions {
  dataDir: string;
  retryScale?: number;
  clock?: Clock;
  concurrencyPerReceiver?: number;
  timeoutMs?: number;
  /** What webhook delivery may reach (services/net/fetch-policy.ts); default any. */
  fetchPolicy?: FetchPolicy;
  onError?: (err: unknown) => void;
  /** How the store is opened when damaged (store-guard.ts). */
  storeOptions?: OpenStoreOptions;
}

export class Notifier {
  readonly store: NotifyStore;
  readonly worker: DeliveryWorker;
  readonly clock: Clock;
  /** Multiplier of the retry delays (1 = the real schedule). */
  readonly retryScale: number;

  private readonly onError?: (err: unknown) => void;

  constructor(opts: NotifierOptions) {
    this.onError = opts.onError;
    this.clock = opts.clock ?? systemClock;
    this.retryScale = opts.retryScale ?? 1;
    this.store = new NotifyStore(opts.dataDir, undefined, opts.storeOptions);
    this.worker = new DeliveryWorker({
      store: this.store,
      clock: this.clock,
      retryScale: opts.retryScale,
      concurrencyPerReceiver: opts.concurrencyPerReceiver,
      timeoutMs: opts.timeoutMs,
      fetchPolicy: opts.fetchPolicy,
      onError: opts.onError,
    });
  }

  /** Creates an envelope for (type, data), stores it with its deliveries and wakes the worker. */
  publish(type: string, data: Record<string, unknown>): { envelope: Envelope; deliveryIds: string[] } {
    const envelope = createEnvelope(type, data, { now: this.clock.now() });
    const body = serializeEnvelope(envelope);
    const { deliveryIds } = this.store.enqueueEvent(envelope, body, this.clock.now());
    if (deliveryIds.length > 0) this.worker.kick();
    return { envelope, deliveryIds };
  }

  private queued: { envelope: Envelope; body: Buffer }[] = [];
  private commitQueued = false;

  /**
   * A domain event from the bus (bookmark service). Unknown types are ignored. Events published
   * in one synchronous run (e.g. a bulk import) are stored together in one transaction, at the end
   * of that run (a microtask, before the publisher's own reply goes out).
   */
  onDomainEvent(ev: DomainEvent): void {
    if (!isEventType(ev.type)) return;
    const envelope = createEnvelope(ev.type, normalizePayload(ev.type, ev.data), { now: this.clock.now() });
    this.queued.push({ envelope, body: serializeEnvelope(envelope) });
    if (!this.commitQueued) {
      this.commitQueued = true;
      queueMicrotask(() => this.commitQueuedEvents());
    }
  }

  /** Stores the events queued from the bus. */
  commitQueuedEvents(): void {
    this.commitQueued = false;
    const batch = this.queued;
    this.queued = [];
    if (batch.length === 0) return;
    try {
      if (this.store.enqueueMany(batch, this.clock.now()) > 0) this.worker.kick();
    } catch (err) {
      this.onError?.(err);
    }
  }

  /** An event from the trigger endpoint: given data is shaped as the bus's (user ids as strings, ...). */
  trigger(type: EventType, data?: Record<string, unknown>) {
    return this.publish(type, data ? normalizePayload(type, data) : samplePayload(type, this.clock.now()));
  }

  /** A new random signing secret for a registration that did not give one. */
  static newSecret(): string {
    return `whsec_${randomBytes(24).toString('base64url')}`;
  }

  async close(): Promise<void> {
    this.commitQueuedEvents();
    await this.worker.stop();
    this.store.close();
  }
}

/** The description's payloads: user objects carry a string id; user.deleted carries the id only. */
export function normalizePayload(type: EventType, data: Record<string, unknown>): Record<string, unknown> {
  if (type.startsWith('user.')) {
    const id = data.id === undefined || data.id === null ? data.id : String(data.id);
    if (type === 'user.deleted') return { id };
    // Exactly the User object's fields: nothing else a user record may carry (tokens, settings).
    const user: Record<string, unknown> = { id };
    for (const k of ['email', 'name', 'createdAt'] as const) if (data[k] !== undefined) user[k] = data[k];
    return user;
  }
  return data;
}
