/**
 * The event envelope `{id, type, timestamp, data}`, the known event types and sample payloads.
 * The envelope is serialised once; those exact bytes are what gets signed and sent on every attempt.
 */
import { randomBytes } from 'node:crypto';

export interface Envelope<D = Record<string, unknown>> {
  id: string;
  type: string;
  /** ISO 8601 UTC */
  timestamp: string;
  data: D;
}

export const EVENT_TYPES = ['user.created', 'user.updated', 'user.deleted', 'payment.completed', 'payment.failed', 'link.created', 'link.updated', 'tag.created'] as const;

export type EventType = (typeof EVENT_TYPES)[number];

/** Subscribing to `*` means every event type. */
export const ALL_EVENTS = '*';

export function isEventType(t: unknown): t is EventType {
  return typeof t === 'string' && (EVENT_TYPES as readonly string[]).includes(t);
}

export const EVENT_DESCRIPTIONS: Record<EventType, string> = {
  'user.created': 'new user registered (User object)',
  'user.updated': 'user profile changed (User object)',
  'user.deleted': 'user account removed (user id only)',
  'payment.completed': 'payment succeeded (Payment object)',
  'payment.failed': 'payment failed (Payment plus error)',
  'link.created': 'a bookmark was created (link object)',
  'link.updated': 'a bookmark was changed (link object)',
  'tag.created': 'a tag was created (tag object)',
};

/** A new event id: `evt_` + 24 random hex digits. */
export function newEventId(): string {
  return `evt_${randomBytes(12).toString('hex')}`;
}

export function createEnvelope<D extends Record<string, unknown>>(type: string, data: D, opts: { id?: string; now?: number } = {}): Envelope<D> {
  return {
    id: opts.id ?? newEventId(),
    type,
    timestamp: new Date(opts.now ?? Date.now()).toISOString(),
    data,
  };
}

/** The exact bytes of an envelope as sent (compact JSON, fields in envelope order). */
export function serializeEnvelope(env: Envelope<unknown>): Buffer {
  return Buffer.from(JSON.stringify({ id: env.id, type: env.type, timestamp: env.timestamp, data: env.data }), 'utf8');
}

export type ParseResult = { ok: true; envelope: Envelope } | { ok: false; error: string };

/** Checks that a parsed JSON value has the envelope's shape. */
export function validateEnvelope(value: unknown): ParseResult {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return { ok: false, error: 'the body is not a JSON object' };
  }
  const v = value as Record<string, unknown>;
  if (typeof v.id !== 'string' || v.id === '') return { ok: false, error: 'envelope field "id" must be a non-empty string' };
  if (v.id.length > 200) return { ok: false, error: 'envelope field "id" is longer than 200 characters' };
  if (typeof v.type !== 'string' || v.type === '') return { ok: false, error: 'envelope field "type" must be a non-empty string' };
  if (v.type.length > 200) return { ok: false, error: 'envelope field "type" is longer than 200 characters' };
  if (v.timestamp !== undefined && typeof v.timestamp !== 'string') {
    return { ok: false, error: 'envelope field "timestamp" must be a string' };
  }
  if (v.data !== undefined && (v.data === null || typeof v.data !== 'object' || Array.isArray(v.data))) {
    return { ok: false, error: 'envelope field "data" must be an object' };
  }
  return {
    ok: true,
    envelope: {
      id: v.id,
      type: v.type,
      timestamp: typeof v.timestamp === 'string' ? v.timestamp : '',
      data: (v.data ?? {}) as Record<string, unknown>,
    },
  };
}

/** Parses raw bytes as an envelope; never throws. */
export function parseEnvelope(body: Buffer | string): ParseResult {
  let value: unknown;
  try {
    value = JSON.parse(typeof body === 'string' ? body : body.toString('utf8'));
  } catch {
    return { ok: false, error: 'the body is not valid JSON' };
  }
  return validateEnvelope(value);
}

/** A sample payload for an event type (used by the trigger endpoint when no data is given). */
export function samplePayload(type: EventType, now: number = Date.now()): Record<string, unknown> {
  const at = new Date(now).toISOString();
  const user = { id: '42', email: 'ada@example.com', name: 'Ada Lovelace', createdAt: at };
  const payment = {
    id: 'pay_sample_1',
    amount: 4200,
    currency: 'EUR',
    orderId: 'ord_sample_1',
    customerId: 'cus_sample_1',
    createdAt: at,
  };
  switch (type) {
    case 'user.created':
    case 'user.updated':
      return user;
    case 'user.deleted':
      return { id: user.id };
    case 'payment.completed':
      return { ...payment, status: 'completed' };
    case 'payment.failed':
      return { ...payment, status: 'failed', error: { code: 'card_declined', message: 'The card was declined.' } };
    case 'link.created':
    case 'link.updated':
      return {
        id: 1,
        url: 'https://example.com/',
        title: 'Example Domain',
        description: null,
        visibility: 1,
        is_private: false,
        status: 1,
        check_disabled: false,
        user_id: 1,
        tags: [],
        lists: [],
        created_at: at,
        updated_at: at,
        deleted_at: null,
      };
    case 'tag.created':
      return { id: 1, name: 'sample', visibility: 1, is_private: false, user_id: 1, created_at: at, updated_at: at, deleted_at: null };
  }
}
