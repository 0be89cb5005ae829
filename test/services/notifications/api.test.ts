/** The notification service's HTTP API, hosted exactly as `ops serve` hosts it. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import service from '../../../src/services/notifications/index.js';
import { buildServiceApp, type ServiceApp } from '../../helpers/service-app.js';
import { eventually, startTestReceiver, type TestReceiver } from '../../helpers/test-receiver.js';

let s: ServiceApp;
let key: string;
let rcv: TestReceiver;
const auth = () => ({ authorization: `Bearer ${key}` });

beforeEach(async () => {
  s = await buildServiceApp(service, { retryScale: 0.0002 });
  key = (await s.handle.localCredentials!()).notifyApiKey!;
  rcv = await startTestReceiver(() => ({ status: 200 }));
});
afterEach(async () => {
  await s.close();
  await rcv.close();
});

const inject = (method: string, url: string, payload?: unknown, headers: Record<string, string> = auth()) => s.app.inject({ method: method as 'GET', url, payload: payload as string, headers });

describe('API key', () => {
  it('is created on first start, handed over once and stored hashed', async () => {
    expect(key).toMatch(/^ntf_[A-Za-z0-9_-]{20,}$/);
    const row = (await import('better-sqlite3')).default;
    const db = new row(`${s.dataDir}/notifications/notifications.db`, { readonly: true });
    const hashes = db.prepare('SELECT hash FROM api_keys').all() as { hash: string }[];
    db.close();
    expect(hashes).toHaveLength(1);
    expect(hashes[0]!.hash).not.toContain(key);
    expect(hashes[0]!.hash).toMatch(/^[0-9a-f]{64}$/);
    // a second start on the same data dir creates no new key
    const s2 = await buildServiceApp(service, {}, { dataDir: s.dataDir });
    expect(await s2.handle.localCredentials!()).toEqual({});
    expect((await s2.app.inject({ url: '/notify/v1/webhooks', headers: auth() })).statusCode).toBe(200);
    await s2.close();
  });

  it('is required on every API route', async () => {
    for (const [m, u] of [
      ['GET', '/notify/v1/webhooks'],
      ['POST', '/notify/v1/webhooks'],
      ['GET', '/notify/v1/deliveries'],
      ['POST', '/notify/v1/events/trigger'],
    ] as const) {
      const none = await inject(m, u, undefined, {});
      expect(none.statusCode).toBe(401);
      expect(none.json()).toMatchObject({ error: 'unauthorized' });
      expect((await inject(m, u, undefined, { authorization: 'Bearer ntf_wrong' })).statusCode).toBe(401);
      expect((await inject(m, u, undefined, { authorization: key })).statusCode).toBe(401);
    }
  });
});

describe('registrations', () => {
  it('create, list, get, update, delete', async () => {
    const c = await inject('POST', '/notify/v1/webhooks', { url: rcv.url, events: ['user.created', 'payment.failed'], secret: 'sh' });
    expect(c.statusCode).toBe(201);
    const w = c.json();
    expect(w).toMatchObject({ id: expect.stringMatching(/^wh_/), url: rcv.url, events: ['user.created', 'payment.failed'], secret: 'sh' });
    expect(c.headers.location).toBe(`/notify/v1/webhooks/${w.id}`);

    const list = (await inject('GET', '/notify/v1/webhooks')).json();
    expect(list.data).toHaveLength(1);
    expect(list.data[0]).not.toHaveProperty('secret');
    expect((await inject('GET', `/notify/v1/webhooks/${w.id}`)).json()).toMatchObject({ id: w.id, url: rcv.url });
    expect((await inject('GET', `/notify/v1/webhooks/${w.id}/secret`)).json()).toEqual({ id: w.id, secret: 'sh' });

    const u = await inject('PATCH', `/notify/v1/webhooks/${w.id}`, { events: ['*'], description: 'all' });
    expect(u.statusCode).toBe(200);
    expect(u.json()).toMatchObject({ events: ['*'], description: 'all', url: rcv.url });

    const d = await inject('DELETE', `/notify/v1/webhooks/${w.id}`, undefined, { ...auth(), 'content-type': 'application/json' });
    expect(d.statusCode).toBe(204);
    expect((await inject('GET', `/notify/v1/webhooks/${w.id}`)).statusCode).toBe(404);
    expect((await inject('DELETE', `/notify/v1/webhooks/${w.id}`)).statusCode).toBe(404);
  });

  it('generates a secret when none is given', async () => {
    const w = (await inject('POST', '/notify/v1/webhooks', { url: rcv.url, events: ['*'] })).json();
    expect(w.secret).toMatch(/^whsec_/);
  });

  it('rejects bad input with 4xx JSON bodies', async () => {
    const bad = async (body: unknown, field: string) => {
      const r = await inject('POST', '/notify/v1/webhooks', body);
      expect(r.statusCode).toBe(400);
      expect(r.json().error).toBe('validation_failed');
      expect(r.json().errors).toHaveProperty(field);
      return r.json();
    };
    await bad({ url: 'ftp://x/y', events: ['user.created'], secret: 's' }, 'url');
    await bad({ url: 'not a url', events: ['user.created'], secret: 's' }, 'url');
    await bad({ events: ['user.created'], secret: 's' }, 'url');
    const unknown = await bad({ url: rcv.url, events: ['user.exploded'], secret: 's' }, 'events');
    expect(unknown.message).toMatch(/unknown event type "user.exploded"/);
    await bad({ url: rcv.url, events: [], secret: 's' }, 'events');
    await bad({ url: rcv.url, events: 'user.created', secret: 's' }, 'events');
    await bad({ url: rcv.url, events: ['user.created'], secret: '' }, 'secret');
    await bad({ url: rcv.url, events: ['user.created'], secret: 5 }, 'secret');
    await bad({ url: rcv.url, events: ['user.created'], sekret: 'x' }, 'sekret');
    await bad([1, 2], 'body');

    const badJson = await s.app.inject({
      method: 'POST',
      url: '/notify/v1/webhooks',
      payload: '{"url":',
      headers: { ...auth(), 'content-type': 'application/json' },
    });
    expect(badJson.statusCode).toBe(400);
    expect(badJson.json()).toMatchObject({ error: 'invalid_json' });

    const text = await s.app.inject({ method: 'POST', url: '/notify/v1/webhooks', payload: 'x', headers: { ...auth(), 'content-type': 'text/plain' } });
    expect(text.statusCode).toBe(415);
    expect(text.json().error).toBe('unsupported_media_type');

    const w = (await inject('POST', '/notify/v1/webhooks', { url: rcv.url, events: ['*'] })).json();
    expect((await inject('PATCH', `/notify/v1/webhooks/${w.id}`, {})).statusCode).toBe(400);
    expect((await inject('PATCH', `/notify/v1/webhooks/${w.id}`, { url: 'file:///etc/passwd' })).statusCode).toBe(400);
    expect((await inject('PATCH', '/notify/v1/webhooks/wh_nope', { url: rcv.url })).statusCode).toBe(404);
    expect((await inject('GET', '/notify/v1/nothing-here')).statusCode).toBe(404);
    expect((await inject('GET', '/notify/v1/deliveries?status=weird')).statusCode).toBe(400);
    expect((await inject('GET', '/notify/v1/deliveries?limit=0')).statusCode).toBe(400);
    expect((await inject('GET', '/notify/v1/deliveries?limit=abc')).statusCode).toBe(400);
  });
});

describe('events and deliveries', () => {
  it('lists the event types', async () => {
    const t = (await inject('GET', '/notify/v1/event-types')).json();
    expect(t.data.map((x: { type: string }) => x.type)).toEqual(['user.created', 'user.updated', 'user.deleted', 'payment.completed', 'payment.failed', 'link.created', 'link.updated', 'tag.created']);
  });

  it('trigger emits an event with a sample or a given payload, delivered to subscribers only', async () => {
    await s.listen();
    const other = await startTestReceiver(() => ({ status: 200 }));
    try {
      await inject('POST', '/notify/v1/webhooks', { url: rcv.url, events: ['payment.completed'], secret: 'a' });
      await inject('POST', '/notify/v1/webhooks', { url: other.url, events: ['user.deleted'], secret: 'b' });
      const t = await inject('POST', '/notify/v1/events/trigger', { type: 'payment.completed' });
      expect(t.statusCode).toBe(202);
      const { event, deliveries } = t.json();
      expect(event).toMatchObject({ id: expect.stringMatching(/^evt_/), type: 'payment.completed', data: { amount: expect.any(Number) } });
      expect(new Date(event.timestamp).toISOString()).toBe(event.timestamp);
      expect(deliveries).toHaveLength(1);
      const t2 = await inject('POST', '/notify/v1/events/trigger', { type: 'payment.completed', data: { amount: 1, orderId: 'o', customerId: 'c' } });
      expect(t2.json().event.data).toEqual({ amount: 1, orderId: 'o', customerId: 'c' });
      await rcv.waitFor(2);
      expect(JSON.parse(rcv.requests[0]!.body.toString())).toEqual(event);
      expect(other.requests).toHaveLength(0);
      expect((await inject('POST', '/notify/v1/events/trigger', { type: 'nope' })).statusCode).toBe(400);
      expect((await inject('POST', '/notify/v1/events/trigger', { type: 'user.created', data: [] })).statusCode).toBe(400);
      expect((await inject('POST', '/notify/v1/events/trigger')).statusCode).toBe(400);
      const ev = (await inject('GET', `/notify/v1/events/${event.id}`)).json();
      expect(ev).toMatchObject({ id: event.id, type: 'payment.completed', data: event.data });
      expect((await inject('GET', '/notify/v1/events?type=payment.completed')).json().total).toBe(2);
    } finally {
      await other.close();
    }
  });

  it('trigger checks given payloads against the description: User, Payment, Payment plus error', async () => {
    const bad = async (type: string, data: Record<string, unknown>, fields: string[]) => {
      const r = await inject('POST', '/notify/v1/events/trigger', { type, data });
      expect(r.statusCode).toBe(400);
      expect(Object.keys(r.json().errors).sort()).toEqual(fields.sort());
    };
    await bad('payment.completed', { amount: '12' }, ['data.amount', 'data.orderId', 'data.customerId']);
    await bad('payment.failed', { amount: 1, orderId: 'o', customerId: 'c' }, ['data.error']);
    await bad('user.created', { id: 5 }, ['data.email', 'data.name', 'data.createdAt']);
    await bad('user.updated', { id: 5, email: 'a@b', name: 'A', createdAt: 'yesterday' }, ['data.createdAt']);
    await bad('user.deleted', {}, ['data.id']);
    expect((await inject('GET', '/notify/v1/events')).json().total).toBe(0); // nothing was stored

    // good ones: user ids become strings, user.deleted carries the id only, as from the bus
    const user = { id: 5, email: 'a@example.com', name: 'A', createdAt: '2026-01-01T00:00:00.000Z', password: 'x' };
    const created = (await inject('POST', '/notify/v1/events/trigger', { type: 'user.created', data: user })).json();
    expect(created.event.data).toEqual({ id: '5', email: 'a@example.com', name: 'A', createdAt: '2026-01-01T00:00:00.000Z' });
    const deleted = (await inject('POST', '/notify/v1/events/trigger', { type: 'user.deleted', data: user })).json();
    expect(deleted.event.data).toEqual({ id: '5' });
    const failed = await inject('POST', '/notify/v1/events/trigger', {
      type: 'payment.failed',
      data: { amount: 100, orderId: 'o1', customerId: 'c1', error: 'card_declined' },
    });
    expect(failed.statusCode).toBe(202);
    expect(failed.json().event.data).toEqual({ amount: 100, orderId: 'o1', customerId: 'c1', error: 'card_declined' });
  });

  it('filters deliveries by event type; refuses delivery filters on events', async () => {
    await inject('POST', '/notify/v1/webhooks', { url: rcv.url, events: ['*'], secret: 'a' });
    await inject('POST', '/notify/v1/events/trigger', { type: 'payment.completed' });
    const { deliveries } = (await inject('POST', '/notify/v1/events/trigger', { type: 'tag.created' })).json();
    const byType = (await inject('GET', '/notify/v1/deliveries?type=tag.created')).json();
    expect(byType.total).toBe(1);
    expect(byType.data.map((d: { id: string }) => d.id)).toEqual(deliveries);
    const wrong = await inject('GET', '/notify/v1/events?status=failed');
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().errors).toHaveProperty('status');
    expect((await inject('GET', '/notify/v1/events?type=tag.created')).json().total).toBe(1);
  });

  it('delivers user.*, link.* and tag.created published on the event bus', async () => {
    await s.listen();
    await inject('POST', '/notify/v1/webhooks', { url: rcv.url, events: ['*'], secret: 'a' });
    const user = { id: 3, email: 'u@example.com', name: 'U', createdAt: '2026-01-01T00:00:00.000Z' };
    s.events.emit({ type: 'user.created', data: { ...user, api_token: 'must-not-leak' }, userId: 3 });
    s.events.emit({ type: 'user.deleted', data: user, userId: 3 });
    s.events.emit({ type: 'link.created', data: { id: 9, url: 'https://example.org' }, userId: 3 });
    s.events.emit({ type: 'link.updated', data: { id: 9, url: 'https://example.org', title: 't' } });
    s.events.emit({ type: 'tag.created', data: { id: 1, name: 'x' } });
    s.events.emit({ type: 'list.created', data: { id: 1 } }); // not a webhook event type: ignored
    await rcv.waitFor(5);
    await new Promise((r) => setTimeout(r, 50));
    const got = rcv.requests.map((r) => JSON.parse(r.body.toString()));
    expect(got.map((e) => e.type).sort()).toEqual(['link.created', 'link.updated', 'tag.created', 'user.created', 'user.deleted']);
    expect(got.find((e) => e.type === 'user.created').data).toEqual({ ...user, id: '3' });
    expect(got.find((e) => e.type === 'user.deleted').data).toEqual({ id: '3' });
    expect(new Set(got.map((e) => e.id)).size).toBe(5);
  });

  it('lists deliveries by status with attempts, and redelivers one', async () => {
    await s.listen();
    rcv.setBehaviour(() => ({ status: 500, body: 'nope' }));
    const w = (await inject('POST', '/notify/v1/webhooks', { url: rcv.url, events: ['*'], secret: 'a' })).json();
    const { deliveries } = (await inject('POST', '/notify/v1/events/trigger', { type: 'user.created' })).json();
    const id = deliveries[0];
    // scale 0.0002: the whole schedule is about 2 s; wait for the end
    const failed = await eventually(async () => {
      const d = (await inject('GET', `/notify/v1/deliveries/${id}`)).json();
      return d.status === 'failed' ? d : null;
    }, 30_000);
    expect(failed).toMatchObject({ webhookId: w.id, attemptCount: 5, lastStatusCode: 500 });
    expect(failed.attempts).toHaveLength(5);
    expect(failed.attempts[0]).toMatchObject({ n: 1, statusCode: 500, responseExcerpt: 'nope', outcome: 'failure', durationMs: expect.any(Number) });

    const byStatus = (await inject('GET', '/notify/v1/deliveries?status=failed')).json();
    expect(byStatus.data.map((d: { id: string }) => d.id)).toEqual([id]);
    expect(byStatus.counts).toEqual({ pending: 0, delivered: 0, failed: 1 });
    expect((await inject('GET', '/notify/v1/deliveries?status=delivered')).json().data).toEqual([]);

    rcv.setBehaviour(() => ({ status: 200 }));
    const re = await inject('POST', `/notify/v1/deliveries/${id}/redeliver`);
    expect(re.statusCode).toBe(202);
    await eventually(async () => (await inject('GET', `/notify/v1/deliveries/${id}`)).json().status === 'delivered');
    expect((await inject('GET', `/notify/v1/deliveries/${id}`)).json().attemptCount).toBe(6);
    expect((await inject('POST', '/notify/v1/deliveries/dlv_nope/redeliver')).statusCode).toBe(404);
    expect((await inject('GET', '/notify/v1/deliveries/dlv_nope')).statusCode).toBe(404);
  }, 40_000);

  it('reports health', async () => {
    expect(await s.handle.health()).toMatchObject({ status: 'degraded', worker: 'stopped' });
    await s.listen();
    expect(await s.handle.health()).toMatchObject({ status: 'ok', deliveries: { pending: 0, delivered: 0, failed: 0 }, retryScale: 0.0002 });
  });
});

describe('a chosen API key', () => {
  it('is accepted when given as the notifyApiKey option (OPS_NOTIFY_API_KEY for ops serve)', async () => {
    const s2 = await buildServiceApp(service, { notifyApiKey: 'ntf_my_own_key' });
    try {
      const r = await s2.app.inject({ url: '/notify/v1/webhooks', headers: { authorization: 'Bearer ntf_my_own_key' } });
      expect(r.statusCode).toBe(200);
      const generated = (await s2.handle.localCredentials!()).notifyApiKey!;
      expect((await s2.app.inject({ url: '/notify/v1/webhooks', headers: { authorization: `Bearer ${generated}` } })).statusCode).toBe(200);
    } finally {
      await s2.close();
    }
  });
});
