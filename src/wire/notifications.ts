/**
 * The notification service's wire types (/notify/v1/...) that the server (services/notifications) writes and the
 * client (clients/notify.ts, `ops hook`) reads, declared once. A leaf: imports nothing; every layer may import it
 * (test/house/layering.test.ts). The server's route declarations are checked against them
 * (services/notifications/inputs.ts).
 */

export type DeliveryStatus = 'pending' | 'delivered' | 'failed';
export const DELIVERY_STATUSES: readonly DeliveryStatus[] = ['pending', 'delivered', 'failed'];

/** `failed` once a delivery to the webhook failed all its attempts; `active` again after a success. */
export type WebhookStatus = 'active' | 'failed';

export interface Webhook {
  id: string;
  url: string;
  events: string[];
  description: string | null;
  status: WebhookStatus;
  /** When it was last marked failed (null while active). */
  failedAt: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface Attempt {
  n: number;
  startedAt: string;
  finishedAt: string | null;
  durationMs: number | null;
  statusCode: number | null;
  error: string | null;
  responseExcerpt: string | null;
  outcome: 'success' | 'failure' | 'interrupted' | 'in_flight';
}

export interface Delivery {
  id: string;
  eventId: string;
  eventType: string;
  webhookId: string;
  url: string;
  status: DeliveryStatus;
  /** Completed attempts (interrupted ones are not counted). */
  attemptCount: number;
  nextAttemptAt: string | null;
  lastStatusCode: number | null;
  lastError: string | null;
  createdAt: string;
  updatedAt: string;
  deliveredAt: string | null;
  attempts: Attempt[];
}

/** The filters and page of GET /v1/deliveries (its query string); the server answers failed deliveries first. */
export interface DeliveryQuery {
  status?: DeliveryStatus;
  webhookId?: string;
  eventId?: string;
  /** The event's type (servers without this filter ignore it). */
  type?: string;
  limit?: number;
  offset?: number;
}

/** The answer of GET /v1/deliveries: a page of deliveries, the total that match, and the counts by status of all. */
export interface DeliveryPage {
  data: Delivery[];
  total: number;
  counts: Record<DeliveryStatus, number>;
}
