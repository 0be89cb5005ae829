/**
 * Typed client for the notification service API (`ops serve` under /notify, or a hosted service
 * with the same API). Base URL = the service root (e.g. http://127.0.0.1:8700/notify); the API key
 * goes in `Authorization: Bearer` (set on the HttpClient). No CLI concerns here.
 */
import type { HttpClient } from '../core/http.js';
import type { Delivery, DeliveryPage, DeliveryQuery, Webhook as WebhookShape } from '../wire/notifications.js';

export type { Attempt, Delivery, DeliveryPage, DeliveryQuery, DeliveryStatus } from '../wire/notifications.js';

export interface Webhook extends WebhookShape {
  /** Only in the answer to create (and `secret()`). */
  secret?: string;
}

export interface WebhookInput {
  url: string;
  events: string[];
  secret?: string;
  description?: string | null;
}

export interface Envelope {
  id: string;
  type: string;
  timestamp: string;
  data: Record<string, unknown>;
}

export interface StoredEvent extends Envelope {
  createdAt: string;
}

export class NotifyClient {
  constructor(readonly http: HttpClient) {}

  async listWebhooks(): Promise<Webhook[]> {
    return (await this.http.json<{ data: Webhook[] }>('GET', '/v1/webhooks')).data;
  }

  createWebhook(input: WebhookInput): Promise<Webhook> {
    return this.http.json<Webhook>('POST', '/v1/webhooks', { body: input });
  }

  getWebhook(id: string): Promise<Webhook> {
    return this.http.json<Webhook>('GET', `/v1/webhooks/${encodeURIComponent(id)}`);
  }

  async webhookSecret(id: string): Promise<string> {
    return (await this.http.json<{ secret: string }>('GET', `/v1/webhooks/${encodeURIComponent(id)}/secret`)).secret;
  }

  updateWebhook(id: string, patch: Partial<WebhookInput>): Promise<Webhook> {
    return this.http.json<Webhook>('PATCH', `/v1/webhooks/${encodeURIComponent(id)}`, { body: patch });
  }

  async deleteWebhook(id: string): Promise<void> {
    await this.http.request('DELETE', `/v1/webhooks/${encodeURIComponent(id)}`);
  }

  /**
   * A one-time dashboard link (`ops serve`: `POST /dashboard/links`): a code good for one use within a
   * minute, exchanged by the browser for its session cookie. `url` is the path under the service root.
   */
  dashboardLink(): Promise<{ code: string; url: string; expires_at: string }> {
    return this.http.json('POST', '/dashboard/links');
  }

  async eventTypes(): Promise<{ type: string; description: string }[]> {
    return (await this.http.json<{ data: { type: string; description: string }[] }>('GET', '/v1/event-types')).data;
  }

  trigger(type: string, data?: Record<string, unknown>): Promise<{ event: Envelope; deliveries: string[] }> {
    return this.http.json('POST', '/v1/events/trigger', { body: data === undefined ? { type } : { type, data } });
  }

  listEvents(q: { type?: string; limit?: number; offset?: number } = {}): Promise<{ data: StoredEvent[]; total: number }> {
    return this.http.json('GET', '/v1/events', { query: { ...q } });
  }

  getEvent(id: string): Promise<StoredEvent> {
    return this.http.json('GET', `/v1/events/${encodeURIComponent(id)}`);
  }

  listDeliveries(q: DeliveryQuery = {}): Promise<DeliveryPage> {
    return this.http.json<DeliveryPage>('GET', '/v1/deliveries', { query: { ...q } });
  }

  /** Every delivery matching q, page after page. */
  async allDeliveries(q: Omit<DeliveryQuery, 'limit' | 'offset'> = {}, pageSize = 500): Promise<Delivery[]> {
    const out: Delivery[] = [];
    for (let offset = 0; ; offset += pageSize) {
      const page = await this.listDeliveries({ ...q, limit: pageSize, offset });
      out.push(...page.data);
      if (page.data.length < pageSize || out.length >= page.total) return out;
    }
  }

  getDelivery(id: string): Promise<Delivery> {
    return this.http.json<Delivery>('GET', `/v1/deliveries/${encodeURIComponent(id)}`);
  }

  redeliver(id: string): Promise<Delivery> {
    return this.http.json<Delivery>('POST', `/v1/deliveries/${encodeURIComponent(id)}/redeliver`);
  }
}
