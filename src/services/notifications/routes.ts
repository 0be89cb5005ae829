/**
 * The notification service's JSON API (under the service prefix, /notify), one declaration a route
 * (services/kit/route.ts; inputs in inputs.ts, the work in actions.ts):
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
import { sendError, tooManyFailures } from './errors.js';
import { bearerCredential } from '../kit/credentials.js';
import { AuthThrottle } from '../auth-throttle.js';
import { DEFAULT_CAPS } from '../limits.js';
import type { Notifier } from './service.js';
import { declareRoute } from '../kit/route.js';
import { deliveriesQuery, eventsQuery, trigger, webhookCreate, webhookPatch } from './inputs.js';
import { NotificationActions } from './actions.js';

type ById = { id: string };

export function registerApi(app: FastifyInstance, notifier: Notifier, isValidKey: (key: string) => boolean, throttle = new AuthThrottle(), maxWebhooks: number = DEFAULT_CAPS.webhooks): void {
  const actions = new NotificationActions(notifier, maxWebhooks);

  app.register(async (api) => {
    api.addHook('onRequest', async (req, reply) => {
      const key = bearerCredential(req.headers.authorization);
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

    const tags = ['Webhooks'];
    declareRoute(api, {
      method: 'POST',
      url: '/v1/webhooks',
      tags,
      summary: 'Register a webhook',
      body: webhookCreate,
      handler: async (_req, reply, input) => {
        const w = actions.registerWebhook(input.body);
        return reply.code(201).header('location', `${app.prefix}/v1/webhooks/${w.id}`).send(w);
      },
    });
    declareRoute(api, { method: 'GET', url: '/v1/webhooks', tags, summary: 'List the webhooks', handler: async () => actions.listWebhooks() });
    declareRoute<undefined, undefined, ById>(api, { method: 'GET', url: '/v1/webhooks/:id', tags, summary: 'Get a webhook', handler: async (req) => actions.getWebhook(req.params.id) });
    declareRoute<undefined, undefined, ById>(api, {
      method: 'GET',
      url: '/v1/webhooks/:id/secret',
      tags,
      summary: "A webhook's signing secret",
      handler: async (req) => actions.webhookSecret(req.params.id),
    });
    declareRoute<ReturnType<typeof webhookPatch.check>, undefined, ById>(api, {
      method: 'PATCH',
      url: '/v1/webhooks/:id',
      tags,
      summary: 'Update any of url, events, secret, description',
      body: webhookPatch,
      handler: async (req, _reply, input) => actions.updateWebhook(req.params.id, () => input.body),
    });
    declareRoute<undefined, undefined, ById>(api, {
      method: 'DELETE',
      url: '/v1/webhooks/:id',
      tags,
      summary: 'Delete a webhook (its pending deliveries fail)',
      handler: async (req, reply) => {
        actions.deleteWebhook(req.params.id);
        return reply.code(204).send();
      },
    });

    declareRoute(api, { method: 'GET', url: '/v1/event-types', tags: ['Events'], summary: 'The known event types', handler: async () => actions.eventTypes() });
    declareRoute(api, {
      method: 'POST',
      url: '/v1/events/trigger',
      tags: ['Events'],
      summary: 'Publish an event (a sample payload when data is omitted)',
      body: trigger,
      handler: async (_req, reply, input) => reply.code(202).send(actions.trigger(input.body)),
    });
    declareRoute(api, { method: 'GET', url: '/v1/events', tags: ['Events'], summary: 'Stored events', query: eventsQuery, handler: async (_req, _reply, input) => actions.listEvents(input.query) });
    declareRoute<undefined, undefined, ById>(api, { method: 'GET', url: '/v1/events/:id', tags: ['Events'], summary: 'One stored event', handler: async (req) => actions.getEvent(req.params.id) });

    declareRoute(api, {
      method: 'GET',
      url: '/v1/deliveries',
      tags: ['Deliveries'],
      summary: 'Deliveries, failed first, with counts by status',
      query: deliveriesQuery,
      handler: async (_req, _reply, input) => actions.listDeliveries(input.query),
    });
    declareRoute<undefined, undefined, ById>(api, {
      method: 'GET',
      url: '/v1/deliveries/:id',
      tags: ['Deliveries'],
      summary: 'One delivery with its attempts',
      handler: async (req) => actions.getDelivery(req.params.id),
    });
    declareRoute<undefined, undefined, ById>(api, {
      method: 'POST',
      url: '/v1/deliveries/:id/redeliver',
      tags: ['Deliveries'],
      summary: 'Queue a delivery again',
      handler: async (req, reply) => reply.code(202).send(actions.redeliver(req.params.id)),
    });
  });
}
