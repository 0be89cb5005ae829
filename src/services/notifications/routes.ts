/**
 * The notification service's JSON API (under the service prefix, /notify):
 *   POST   /v1/webhooks                      register {url, events, secret?, description?} -> 201
 *   GET    /v1/webhooks                      list
 *   GET    /v1/webhooks/:id                  get
 *   GET    /v1/webhooks/:id/secret           {secret}
 *   PATCH  /v1/webhooks/:id                  update any subset
 *   DELETE /v1/webhooks/:id                  204
 *   GET    /v1/event-types                   the known types
 *   POST   /v1/events/trigger                {type, data?} -> 202 {event, deliveries}
 *   GET    /v1/events, /v1/events/:id        stored events
 *   GET    /v1/deliveries                    ?status&webhookId&eventId&type&limit&offset, failed first
 *   GET    /v1/deliveries/:id                one delivery with its attempts
 *   POST   /v1/deliveries/:id/redeliver      queue it again (a fresh series of attempts) -> 202
 * Every route needs `Authorization: Bearer <api key>`.
 */
import type { FastifyInstance } from 'fastify';
import { EVENT_DESCRIPTIONS, EVENT_TYPES, type EventType } from '../../webhooks/envelope.js';
import { bearerToken, sendError, tooManyFailures } from './http-util.js';
import { AuthThrottle } from '../auth-throttle.js';
import { DEFAULT_CAPS } from '../limits.js';
import { Notifier } from './service.js';
import type { Webhook, WebhookWithSecret } from './store/index.js';
import { parseEventQuery, parseListQuery, parseTrigger, parseWebhookCreate, parseWebhookPatch } from './validate.js';

const publicWebhook = (w: WebhookWithSecret): Webhook => {
  const { secret: _secret, ...rest } = w;
  return rest;
};

export function registerApi(app: FastifyInstance, notifier: Notifier, isValidKey: (key: string) => boolean, throttle = new AuthThrottle(), maxWebhooks: number = DEFAULT_CAPS.webhooks): void {
  const { store } = notifier;
  const now = () => notifier.clock.now();

  app.register(async (api) => {
    api.addHook('onRequest', async (req, reply) => {
      const key = bearerToken(req);
      if (!key) {
        return sendError(reply, 401, 'unauthorized', 'missing API key: send Authorization: Bearer <key> (ops serve writes it to the local profile)');
      }
      // wrong keys are throttled per client address and key prefix (auth-throttle.ts)
      const wait = throttle.check(req.ip, key);
      if (wait !== null) return tooManyFailures(reply, wait);
      if (!isValidKey(key)) {
        throttle.failed(req.ip, key);
        return sendError(reply, 401, 'unauthorized', 'invalid API key');
      }
      throttle.succeeded(key);
    });

    api.post('/v1/webhooks', async (req, reply) => {
      const input = parseWebhookCreate(req.body);
      if (store.webhookIds().length >= maxWebhooks)
        return sendError(reply, 403, 'limit_reached', `this service holds at most ${maxWebhooks} webhooks: delete one first (ops serve --max-webhooks sets the cap)`);
      const w = store.createWebhook({ ...input, secret: input.secret ?? Notifier.newSecret() }, now());
      return reply.code(201).header('location', `${app.prefix}/v1/webhooks/${w.id}`).send(w);
    });

    api.get('/v1/webhooks', async () => ({ data: store.listWebhooks().map(publicWebhook) }));

    api.get<{ Params: { id: string } }>('/v1/webhooks/:id', async (req, reply) => {
      const w = store.getWebhook(req.params.id);
      return w ? publicWebhook(w) : sendError(reply, 404, 'not_found', `no webhook ${req.params.id}`);
    });

    api.get<{ Params: { id: string } }>('/v1/webhooks/:id/secret', async (req, reply) => {
      const w = store.getWebhook(req.params.id);
      return w ? { id: w.id, secret: w.secret } : sendError(reply, 404, 'not_found', `no webhook ${req.params.id}`);
    });

    api.patch<{ Params: { id: string } }>('/v1/webhooks/:id', async (req, reply) => {
      if (!store.getWebhook(req.params.id)) return sendError(reply, 404, 'not_found', `no webhook ${req.params.id}`);
      const patch = parseWebhookPatch(req.body);
      const w = store.updateWebhook(req.params.id, patch, now());
      notifier.worker.kick();
      return publicWebhook(w!);
    });

    api.delete<{ Params: { id: string } }>('/v1/webhooks/:id', async (req, reply) => {
      if (!store.deleteWebhook(req.params.id, now())) return sendError(reply, 404, 'not_found', `no webhook ${req.params.id}`);
      return reply.code(204).send();
    });

    api.get('/v1/event-types', async () => ({
      data: EVENT_TYPES.map((type) => ({ type, description: EVENT_DESCRIPTIONS[type] })),
    }));

    api.post('/v1/events/trigger', async (req, reply) => {
      const t = parseTrigger(req.body);
      const { envelope, deliveryIds } = notifier.trigger(t.type as EventType, t.data);
      return reply.code(202).send({ event: envelope, deliveries: deliveryIds });
    });

    api.get('/v1/events', async (req) => {
      const q = parseEventQuery(req.query as Record<string, unknown>);
      return store.listEvents({ type: q.type, limit: q.limit, offset: q.offset });
    });

    api.get<{ Params: { id: string } }>('/v1/events/:id', async (req, reply) => {
      const e = store.getEvent(req.params.id);
      return e ?? sendError(reply, 404, 'not_found', `no event ${req.params.id}`);
    });

    api.get('/v1/deliveries', async (req) => {
      const q = parseListQuery(req.query as Record<string, unknown>);
      const page = store.listDeliveries(q);
      return { ...page, counts: store.countsByStatus() };
    });

    api.get<{ Params: { id: string } }>('/v1/deliveries/:id', async (req, reply) => {
      const d = store.getDelivery(req.params.id);
      return d ?? sendError(reply, 404, 'not_found', `no delivery ${req.params.id}`);
    });

    api.post<{ Params: { id: string } }>('/v1/deliveries/:id/redeliver', async (req, reply) => {
      const r = store.redeliver(req.params.id, now());
      if (!r.ok) return sendError(reply, r.code, r.code === 404 ? 'not_found' : 'conflict', r.message);
      notifier.worker.kick();
      return reply.code(202).send(r.delivery);
    });
  });
}
