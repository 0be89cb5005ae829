/**
 * The wire shapes of the notification service's API (/notify/v1/...), shared by the service that
 * answers with them and the client (`ops hook`) that reads them.
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
