/** Validation of the registration and trigger bodies; every problem is reported per field. */
import { ALL_EVENTS, EVENT_TYPES, isEventType } from '../../webhooks/envelope.js';
import { receiverUrlProblem } from '../../webhooks/send.js';
import type { DeliveryStatus } from './store/index.js';
import { DELIVERY_STATUSES } from './store/index.js';

export type FieldErrors = Record<string, string[]>;

export class ValidationError extends Error {
  constructor(readonly errors: FieldErrors) {
    super(
      Object.entries(errors)
        .map(([f, msgs]) => `${f}: ${msgs.join('; ')}`)
        .join('; '),
    );
  }
}

function add(errors: FieldErrors, field: string, msg: string): void {
  (errors[field] ??= []).push(msg);
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

function checkEvents(errors: FieldErrors, v: unknown): string[] | undefined {
  if (!Array.isArray(v) || v.length === 0) {
    add(errors, 'events', 'must be a non-empty array of event types');
    return undefined;
  }
  const out: string[] = [];
  for (const t of v) {
    if (typeof t !== 'string') add(errors, 'events', 'every event type must be a string');
    else if (t !== ALL_EVENTS && !isEventType(t)) {
      add(errors, 'events', `unknown event type "${t}" (known: ${EVENT_TYPES.join(', ')}, or * for all)`);
    } else if (!out.includes(t)) out.push(t);
  }
  return out;
}

function checkSecret(errors: FieldErrors, v: unknown): string | undefined {
  if (typeof v !== 'string' || v.length === 0) add(errors, 'secret', 'must be a non-empty string');
  else if (v.length > 1024) add(errors, 'secret', 'must be at most 1024 characters');
  else return v;
  return undefined;
}

function checkDescription(errors: FieldErrors, v: unknown): string | null | undefined {
  if (v === null) return null;
  if (typeof v !== 'string') add(errors, 'description', 'must be a string or null');
  else if (v.length > 500) add(errors, 'description', 'must be at most 500 characters');
  else return v;
  return undefined;
}

function checkUnknown(errors: FieldErrors, body: Record<string, unknown>, allowed: string[]): void {
  for (const k of Object.keys(body)) if (!allowed.includes(k)) add(errors, k, `unknown field (allowed: ${allowed.join(', ')})`);
}

export interface WebhookInput {
  url: string;
  events: string[];
  secret?: string;
  description?: string | null;
}

const WEBHOOK_FIELDS = ['url', 'events', 'secret', 'description'];

export function parseWebhookCreate(body: unknown): WebhookInput {
  if (!isObject(body)) throw new ValidationError({ body: ['must be a JSON object with url, events and secret'] });
  const errors: FieldErrors = {};
  checkUnknown(errors, body, WEBHOOK_FIELDS);
  const urlProblem = receiverUrlProblem(body.url);
  if (urlProblem) add(errors, 'url', urlProblem.replace(/^url /, ''));
  const events = checkEvents(errors, body.events);
  const secret = body.secret === undefined ? undefined : checkSecret(errors, body.secret);
  const description = body.description === undefined ? undefined : checkDescription(errors, body.description);
  if (Object.keys(errors).length) throw new ValidationError(errors);
  return { url: body.url as string, events: events!, secret, description };
}

export function parseWebhookPatch(body: unknown): Partial<WebhookInput> {
  if (!isObject(body)) throw new ValidationError({ body: ['must be a JSON object'] });
  const errors: FieldErrors = {};
  checkUnknown(errors, body, WEBHOOK_FIELDS);
  const out: Partial<WebhookInput> = {};
  if (body.url !== undefined) {
    const p = receiverUrlProblem(body.url);
    if (p) add(errors, 'url', p.replace(/^url /, ''));
    else out.url = body.url as string;
  }
  if (body.events !== undefined) out.events = checkEvents(errors, body.events);
  if (body.secret !== undefined) out.secret = checkSecret(errors, body.secret);
  if (body.description !== undefined) out.description = checkDescription(errors, body.description);
  if (Object.keys(body).length === 0) add(errors, 'body', `give at least one of ${WEBHOOK_FIELDS.join(', ')}`);
  if (Object.keys(errors).length) throw new ValidationError(errors);
  return out;
}

const isText = (v: unknown) => typeof v === 'string' && v !== '';

/**
 * The payloads of description 3: a User object (id, email, name, createdAt; user.deleted: the id
 * only), a Payment object (with amount, orderId and customerId), payment.failed adds `error`.
 * Problems are reported as `data.<field>`.
 */
function checkPayload(errors: FieldErrors, type: string, data: Record<string, unknown>): void {
  const need = (field: string, ok: boolean, what: string) => {
    if (!ok) add(errors, `data.${field}`, `${type} needs ${what}`);
  };
  if (type.startsWith('user.')) {
    need('id', isText(data.id) || Number.isInteger(data.id), 'the user id (a string)');
    if (type === 'user.deleted') return;
    need('email', isText(data.email), 'the email (a string)');
    need('name', isText(data.name), 'the name (a string)');
    need('createdAt', isText(data.createdAt) && Number.isFinite(Date.parse(data.createdAt as string)), 'createdAt (an ISO 8601 time)');
  } else if (type.startsWith('payment.')) {
    need('amount', typeof data.amount === 'number' && Number.isFinite(data.amount), 'the amount (a number)');
    need('orderId', isText(data.orderId), 'the orderId (a string)');
    need('customerId', isText(data.customerId), 'the customerId (a string)');
    if (type === 'payment.failed') need('error', isText(data.error) || isObject(data.error), 'the error (a string or an object)');
  }
}

export function parseTrigger(body: unknown): { type: string; data?: Record<string, unknown> } {
  if (!isObject(body)) throw new ValidationError({ body: ['must be a JSON object with type and optionally data'] });
  const errors: FieldErrors = {};
  checkUnknown(errors, body, ['type', 'data']);
  if (typeof body.type !== 'string' || !isEventType(body.type)) {
    add(errors, 'type', `must be one of ${EVENT_TYPES.join(', ')}`);
  }
  if (body.data !== undefined && !isObject(body.data)) add(errors, 'data', 'must be a JSON object');
  else if (body.data !== undefined && isEventType(body.type)) checkPayload(errors, body.type, body.data);
  if (Object.keys(errors).length) throw new ValidationError(errors);
  return { type: body.type as string, ...(body.data !== undefined ? { data: body.data as Record<string, unknown> } : {}) };
}

/** Filters of GET /v1/events: those of deliveries (status, webhookId, eventId) do not apply. */
export function parseEventQuery(q: Record<string, unknown>): ReturnType<typeof parseListQuery> {
  const errors: FieldErrors = {};
  for (const k of ['status', 'webhookId', 'eventId']) if (q[k] !== undefined) add(errors, k, 'is not a filter of events (they have type, limit, offset)');
  if (Object.keys(errors).length) throw new ValidationError(errors);
  return parseListQuery(q);
}

export function parseListQuery(q: Record<string, unknown>): {
  status?: DeliveryStatus;
  webhookId?: string;
  eventId?: string;
  type?: string;
  limit: number;
  offset: number;
} {
  const errors: FieldErrors = {};
  const out: ReturnType<typeof parseListQuery> = { limit: 50, offset: 0 };
  if (q.status !== undefined) {
    if (typeof q.status === 'string' && (DELIVERY_STATUSES as readonly string[]).includes(q.status)) {
      out.status = q.status as DeliveryStatus;
    } else add(errors, 'status', `must be one of ${DELIVERY_STATUSES.join(', ')}`);
  }
  for (const k of ['webhookId', 'eventId', 'type'] as const) {
    if (q[k] !== undefined) {
      if (typeof q[k] === 'string' && q[k] !== '') out[k] = q[k] as string;
      else add(errors, k, 'must be a non-empty string');
    }
  }
  for (const [k, min, max] of [
    ['limit', 1, 500],
    ['offset', 0, Number.MAX_SAFE_INTEGER],
  ] as const) {
    if (q[k] !== undefined) {
      const n = Number(q[k]);
      if (typeof q[k] !== 'string' || !/^\d+$/.test(q[k] as string) || n < min || n > max) {
        add(errors, k, `must be an integer from ${min} to ${max === 500 ? 500 : 'any'}`);
      } else out[k] = n;
    }
  }
  if (Object.keys(errors).length) throw new ValidationError(errors);
  return out;
}
