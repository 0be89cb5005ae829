/**
 * The inputs of the notification routes, each declared once (services/kit/declare.ts): a registration, a
 * registration's update, a trigger, the filters of events and deliveries. Every problem is reported per field
 * in this service's words; routes.ts answers them as 400 `validation_failed` (http-util.ts).
 */
import { ALL_EVENTS, EVENT_TYPES, isEventType } from '../../webhooks/envelope.js';
import { receiverUrlProblem } from '../../webhooks/send.js';
import type { DeliveryStatus } from './store/index.js';
import { DELIVERY_STATUSES } from './store/index.js';
import { field, isObject, objectOf, optional, withDefault, type Field } from '../kit/declare.js';
import type { DeliveryQuery } from '../../wire/notifications.js';
import type { Problems } from '../kit/errors.js';

const url = field<string>({ type: 'string', format: 'uri', description: 'an http(s) URL without credentials' }, (v, fail) => {
  const problem = receiverUrlProblem(v);
  if (problem) return fail(problem.replace(/^url /, ''));
  return v as string;
});

const events = field<string[]>({ type: 'array', minItems: 1, items: { type: 'string', enum: [...EVENT_TYPES, ALL_EVENTS] }, description: 'event types, or * for all' }, (v, fail) => {
  if (!Array.isArray(v) || v.length === 0) return fail('must be a non-empty array of event types');
  const out: string[] = [];
  for (const t of v) {
    if (typeof t !== 'string') fail('every event type must be a string');
    else if (t !== ALL_EVENTS && !isEventType(t)) fail(`unknown event type "${t}" (known: ${EVENT_TYPES.join(', ')}, or * for all)`);
    else if (!out.includes(t)) out.push(t);
  }
  return out;
});

const secret = field<string>({ type: 'string', minLength: 1, maxLength: 1024 }, (v, fail) => {
  if (typeof v !== 'string' || v.length === 0) return fail('must be a non-empty string');
  if (v.length > 1024) return fail('must be at most 1024 characters');
  return v;
});

const description = field<string | null>({ type: ['string', 'null'], maxLength: 500 }, (v, fail) => {
  if (v === null) return null;
  if (typeof v !== 'string') return fail('must be a string or null');
  if (v.length > 500) return fail('must be at most 500 characters');
  return v;
});

const unknownField = (allowed: string[]) => `unknown field (allowed: ${allowed.join(', ')})`;

/** POST /v1/webhooks. */
export const webhookCreate = objectOf({ url, events, secret: optional(secret), description: optional(description) }, { notObject: 'must be a JSON object with url, events and secret', unknownField });

/** PATCH /v1/webhooks/:id: any subset of a registration's fields, at least one. */
export const webhookPatch = objectOf(
  { url: optional(url), events: optional(events), secret: optional(secret), description: optional(description) },
  {
    notObject: 'must be a JSON object',
    unknownField,
    schema: { minProperties: 1 },
    refine: (_value, input, problems) => {
      if (Object.keys(input).length === 0) problems.add('body', 'give at least one of url, events, secret, description');
    },
  },
);

const isText = (v: unknown) => typeof v === 'string' && v !== '';

/**
 * The payloads of description 3: a User object (id, email, name, createdAt; user.deleted: the id
 * only), a Payment object (with amount, orderId and customerId), payment.failed adds `error`.
 * Problems are reported as `data.<field>`.
 */
function checkPayload(problems: Problems, type: string, data: Record<string, unknown>): void {
  const need = (name: string, ok: boolean, what: string) => {
    if (!ok) problems.add(`data.${name}`, `${type} needs ${what}`);
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

/** POST /v1/events/trigger: a known type, and data that fits it (or none: a sample payload is sent). */
export const trigger = objectOf(
  {
    type: field<string>({ type: 'string', enum: [...EVENT_TYPES] }, (v, fail) => (typeof v === 'string' && isEventType(v) ? v : fail(`must be one of ${EVENT_TYPES.join(', ')}`))),
    data: optional(field<Record<string, unknown>>({ type: 'object' }, (v, fail) => (isObject(v) ? v : fail('must be a JSON object')))),
  },
  {
    notObject: 'must be a JSON object with type and optionally data',
    unknownField,
    refine: (value, _input, problems) => {
      if (value.type !== undefined && value.data !== undefined) checkPayload(problems, value.type, value.data);
    },
  },
);

/** A non-empty string filter; a repeated parameter is refused as not a string. */
const text = optional(field<string>({ type: 'string', minLength: 1 }, (v, fail) => (typeof v === 'string' && v !== '' ? v : fail('must be a non-empty string'))));

/** A whole number from `min` to `max` in a query (digits only). */
function count(min: number, max: number, dflt: number) {
  const message = `must be an integer from ${min} to ${max === 500 ? 500 : 'any'}`;
  return withDefault(
    field<number>({ type: 'integer', minimum: min, ...(max < Number.MAX_SAFE_INTEGER ? { maximum: max } : {}) }, (v, fail) => {
      const n = Number(v);
      if (typeof v !== 'string' || !/^\d+$/.test(v) || n < min || n > max) return fail(message);
      return n;
    }),
    dflt,
  );
}

const paging = { limit: count(1, 500, 50), offset: count(0, Number.MAX_SAFE_INTEGER, 0) };

/** The fields that declare a wire type: one for each of its keys, reading its value type. */
type FieldsOf<T> = { [K in keyof T]-?: Field<NonNullable<T[K]>> };

/** GET /v1/deliveries: ?status&webhookId&eventId&type&limit&offset, a field for each of DeliveryQuery's (wire/notifications.ts, what the client sends). */
export const deliveriesQuery = objectOf({
  status: optional(
    field<DeliveryStatus>({ type: 'string', enum: [...DELIVERY_STATUSES] }, (v, fail) =>
      typeof v === 'string' && (DELIVERY_STATUSES as readonly string[]).includes(v) ? (v as DeliveryStatus) : fail(`must be one of ${DELIVERY_STATUSES.join(', ')}`),
    ),
  ),
  webhookId: text,
  eventId: text,
  type: text,
  ...paging,
} satisfies FieldsOf<DeliveryQuery>);

const DELIVERY_ONLY = ['status', 'webhookId', 'eventId'];

/** GET /v1/events: ?type&limit&offset; the filters of deliveries (status, webhookId, eventId) are refused first. */
export const eventsQuery = objectOf(
  { type: text, ...paging },
  {
    precheck: (input, problems) => {
      for (const k of DELIVERY_ONLY) if (input[k] !== undefined) problems.add(k, 'is not a filter of events (they have type, limit, offset)');
    },
  },
);
