/**
 * The notification service's 4xx bodies, to the byte: recorded before its checks moved to route declarations
 * (services/kit) and kept since. Clients read `error`, `message` and `errors` per field.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import service from '../../../src/services/notifications/index.js';
import { buildServiceApp, type ServiceApp } from '../../helpers/service-app.js';

let s: ServiceApp;
let key: string;
let webhookId: string;

beforeAll(async () => {
  s = await buildServiceApp(service, {});
  key = (await s.handle.localCredentials!()).notifyApiKey!;
  const created = await answer('POST', '/notify/v1/webhooks', { url: 'http://127.0.0.1:9/hook', events: ['user.created'] });
  webhookId = (JSON.parse(created.body) as { id: string }).id;
});
afterAll(async () => {
  await s.close();
});

async function answer(method: string, url: string, payload?: unknown, contentType = 'application/json') {
  const r = await s.app.inject({
    method: method as 'GET',
    url,
    headers: { authorization: `Bearer ${key}`, ...(payload === undefined ? {} : { 'content-type': contentType }) },
    payload: payload === undefined ? undefined : typeof payload === 'string' ? payload : JSON.stringify(payload),
  });
  return { status: r.statusCode, body: r.body };
}

describe('notification error bodies', () => {
  const cases: [string, string, string, unknown][] = [
    ['create: not an object', 'POST', '/notify/v1/webhooks', [1]],
    ['create: no body', 'POST', '/notify/v1/webhooks', ''],
    ['create: everything wrong', 'POST', '/notify/v1/webhooks', { url: 'ftp://x', events: [3, 'nope', 'user.created'], secret: '', description: 5, color: 'red' }],
    ['create: empty events, long secret', 'POST', '/notify/v1/webhooks', { url: 'http://127.0.0.1:9/', events: [], secret: 'x'.repeat(1025), description: 'd'.repeat(501) }],
    ['create: url missing', 'POST', '/notify/v1/webhooks', { events: ['*'] }],
    ['patch: empty', 'PATCH', '/notify/v1/webhooks/{id}', {}],
    ['patch: not an object', 'PATCH', '/notify/v1/webhooks/{id}', 'null'],
    ['patch: bad fields', 'PATCH', '/notify/v1/webhooks/{id}', { url: 'file:///etc/passwd', events: 'user.created', secret: 7, description: null, x: 1 }],
    ['patch: missing webhook with a bad body', 'PATCH', '/notify/v1/webhooks/wh_missing', { x: 1 }],
    ['trigger: no body', 'POST', '/notify/v1/events/trigger', ''],
    ['trigger: unknown type', 'POST', '/notify/v1/events/trigger', { type: 'nope', data: [] }],
    ['trigger: user payload', 'POST', '/notify/v1/events/trigger', { type: 'user.created', data: { id: '', createdAt: 'yesterday' }, extra: true }],
    ['trigger: payment.failed payload', 'POST', '/notify/v1/events/trigger', { type: 'payment.failed', data: { amount: '3' } }],
    ['trigger: bad JSON', 'POST', '/notify/v1/events/trigger', '{"type":'],
    ['deliveries: bad filters', 'GET', '/notify/v1/deliveries?status=weird&limit=0&offset=-1&webhookId=&type=', undefined],
    ['deliveries: limit too big', 'GET', '/notify/v1/deliveries?limit=501', undefined],
    ['deliveries: repeated limit', 'GET', '/notify/v1/deliveries?limit=1&limit=2', undefined],
    ['events: delivery filters', 'GET', '/notify/v1/events?status=failed&eventId=x&limit=abc', undefined],
    ['no route', 'GET', '/notify/v1/nothing', undefined],
  ];
  for (const [name, method, url, payload] of cases) {
    it(name, async () => {
      const got = await answer(method, url.replace('{id}', webhookId), payload);
      expect(got).toMatchSnapshot();
    });
  }
});
