/**
 * What the notification routes do, over the Notifier and its store: register, read, update and delete
 * webhooks, trigger events, list and redeliver deliveries. Inputs arrive checked (inputs.ts); what cannot be
 * done is an HttpError in this service's shape (`notifyError`), which the error handler sends as it is.
 */
import { EVENT_DESCRIPTIONS, EVENT_TYPES, type EventType } from '../../webhooks/envelope.js';
import { HttpError } from '../kit/errors.js';
import { Notifier } from './service.js';
import type { Webhook, WebhookWithSecret } from './store/index.js';
import type { DeliveryPage, DeliveryQuery } from '../../wire/notifications.js';
import type { eventsQuery, trigger, webhookCreate, webhookPatch } from './inputs.js';

/** An answer of this service's shape: `{error, message}`. */
export const notifyError = (status: number, error: string, message: string) => new HttpError(status, { error, message });

const noWebhook = (id: string) => notifyError(404, 'not_found', `no webhook ${id}`);

const publicWebhook = (w: WebhookWithSecret): Webhook => {
  const { secret: _secret, ...rest } = w;
  return rest;
};

export class NotificationActions {
  constructor(
    private readonly notifier: Notifier,
    private readonly maxWebhooks: number,
  ) {}

  private get store() {
    return this.notifier.store;
  }

  private now(): number {
    return this.notifier.clock.now();
  }

  registerWebhook(input: ReturnType<typeof webhookCreate.check>): WebhookWithSecret {
    if (this.store.webhookIds().length >= this.maxWebhooks)
      throw notifyError(403, 'limit_reached', `this service holds at most ${this.maxWebhooks} webhooks: delete one first (ops serve --max-webhooks sets the cap)`);
    return this.store.createWebhook({ ...input, secret: input.secret ?? Notifier.newSecret() }, this.now());
  }

  listWebhooks(): { data: Webhook[] } {
    return { data: this.store.listWebhooks().map(publicWebhook) };
  }

  private webhook(id: string): WebhookWithSecret {
    const w = this.store.getWebhook(id);
    if (!w) throw noWebhook(id);
    return w;
  }

  getWebhook(id: string): Webhook {
    return publicWebhook(this.webhook(id));
  }

  webhookSecret(id: string): { id: string; secret: string } {
    const w = this.webhook(id);
    return { id: w.id, secret: w.secret };
  }

  /** The webhook must exist before its patch is read (a missing one is 404 whatever the body). */
  updateWebhook(id: string, readPatch: () => ReturnType<typeof webhookPatch.check>): Webhook {
    this.webhook(id);
    const w = this.store.updateWebhook(id, readPatch(), this.now());
    this.notifier.worker.kick();
    return publicWebhook(w!);
  }

  deleteWebhook(id: string): void {
    if (!this.store.deleteWebhook(id, this.now())) throw noWebhook(id);
  }

  eventTypes() {
    return { data: EVENT_TYPES.map((type) => ({ type, description: EVENT_DESCRIPTIONS[type] })) };
  }

  trigger(input: ReturnType<typeof trigger.check>) {
    const { envelope, deliveryIds } = this.notifier.trigger(input.type as EventType, input.data);
    return { event: envelope, deliveries: deliveryIds };
  }

  listEvents(q: ReturnType<typeof eventsQuery.check>) {
    return this.store.listEvents({ type: q.type, limit: q.limit, offset: q.offset });
  }

  getEvent(id: string) {
    const e = this.store.getEvent(id);
    if (!e) throw notifyError(404, 'not_found', `no event ${id}`);
    return e;
  }

  listDeliveries(q: DeliveryQuery): DeliveryPage {
    return { ...this.store.listDeliveries(q), counts: this.store.countsByStatus() };
  }

  getDelivery(id: string) {
    const d = this.store.getDelivery(id);
    if (!d) throw notifyError(404, 'not_found', `no delivery ${id}`);
    return d;
  }

  redeliver(id: string) {
    const r = this.store.redeliver(id, this.now());
    if (!r.ok) throw notifyError(r.code, r.code === 404 ? 'not_found' : 'conflict', r.message);
    this.notifier.worker.kick();
    return r.delivery;
  }
}
