/**
 * Deliveries from the real service (hosted as `ops serve` hosts it, worker running on real time
 * with a scaled schedule) to real receivers on 127.0.0.1.
 */
import { createHmac } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import service from '../../../src/services/notifications/index.js';
import { scaledSchedule } from '../../../src/webhooks/schedule.js';
import { buildServiceApp, type ServiceApp } from '../../helpers/service-app.js';
import { eventually, startTestReceiver, type TestReceiver } from '../../helpers/test-receiver.js';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

async function host(retryScale: number) {
  const s: ServiceApp = await buildServiceApp(service, { retryScale });
  cleanups.push(() => s.close());
  const key = (await s.handle.localCredentials!()).notifyApiKey!;
  await s.listen();
  const call = async (method: string, url: string, payload?: unknown) => {
    const r = await s.app.inject({ method: method as 'GET', url, payload: payload as string, headers: { authorization: `Bearer ${key}` } });
    return r.json();
  };
  return { s, key, call };
}

async function receiver(b: Parameters<typeof startTestReceiver>[0]): Promise<TestReceiver> {
  const r = await startTestReceiver(b);
  cleanups.push(() => r.close());
  return r;
}

describe('delivery on a scaled schedule', () => {
  it('fails 4 times then succeeds: exactly 5 attempts, each after its scaled delay', async () => {
    const scale = 0.0002;
    const { call } = await host(scale);
    const rcv = await receiver((_r, i) => ({ status: i < 4 ? 500 : 200 }));
    await call('POST', '/notify/v1/webhooks', { url: rcv.url, events: ['payment.completed'], secret: 'pay' });
    const { event, deliveries } = await call('POST', '/notify/v1/events/trigger', { type: 'payment.completed' });
    const id = deliveries[0];
    await eventually(async () => (await call('GET', `/notify/v1/deliveries/${id}`)).status === 'delivered');
    const d = await call('GET', `/notify/v1/deliveries/${id}`);
    expect(d.attemptCount).toBe(5);
    expect(d.attempts.map((a: { statusCode: number }) => a.statusCode)).toEqual([500, 500, 500, 500, 200]);
    expect(rcv.requests).toHaveLength(5);
    const delays = scaledSchedule(scale);
    for (let i = 1; i < 5; i++) {
      // attempt i+1 waits its delay after attempt i failed (which was after it arrived)
      expect(rcv.requests[i]!.at - rcv.requests[i - 1]!.at).toBeGreaterThanOrEqual(delays[i]! - 1);
      const started = Date.parse(d.attempts[i].startedAt);
      const prevFinished = Date.parse(d.attempts[i - 1].finishedAt);
      expect(started - prevFinished).toBeGreaterThanOrEqual(delays[i]!);
    }
    for (const r of rcv.requests) {
      expect(JSON.parse(r.body.toString()).id).toBe(event.id);
      expect(r.headers['x-signature']).toBe(createHmac('sha256', 'pay').update(r.body).digest('hex'));
    }
    await new Promise((r) => setTimeout(r, 100));
    expect(rcv.requests).toHaveLength(5);
  });

  it('always failing: failed after exactly 5 attempts', async () => {
    const { call } = await host(0.0001);
    const rcv = await receiver(() => ({ status: 500 }));
    await call('POST', '/notify/v1/webhooks', { url: rcv.url, events: ['*'], secret: 'x' });
    const { deliveries } = await call('POST', '/notify/v1/events/trigger', { type: 'user.updated' });
    await eventually(async () => (await call('GET', `/notify/v1/deliveries/${deliveries[0]}`)).status === 'failed');
    await new Promise((r) => setTimeout(r, 200));
    expect(rcv.requests).toHaveLength(5);
    expect((await call('GET', `/notify/v1/deliveries/${deliveries[0]}`)).attemptCount).toBe(5);
  });

  it('a receiver that answers after 6 s counts as a failure (the limit is 5 s)', async () => {
    const { call } = await host(0.0001);
    const rcv = await receiver((_r, i) => (i === 0 ? { status: 200, delayMs: 6000 } : { status: 200 }));
    await call('POST', '/notify/v1/webhooks', { url: rcv.url, events: ['*'], secret: 'x' });
    const { deliveries } = await call('POST', '/notify/v1/events/trigger', { type: 'user.created' });
    const d = await eventually(async () => {
      const x = await call('GET', `/notify/v1/deliveries/${deliveries[0]}`);
      return x.status === 'delivered' ? x : null;
    }, 15_000);
    expect(d.attemptCount).toBe(2);
    expect(d.attempts[0]).toMatchObject({ outcome: 'failure', statusCode: null });
    expect(d.attempts[0].error).toMatch(/timeout: no answer within 5 s/);
    expect(d.attempts[0].durationMs).toBeGreaterThanOrEqual(4900);
    expect(d.attempts[1]).toMatchObject({ outcome: 'success', statusCode: 200 });
  }, 20_000);

  it('a slow receiver and a dead one do not delay deliveries to the others', async () => {
    const { call } = await host(1);
    let release!: () => void;
    const released = new Promise<void>((r) => (release = r));
    const slow = await receiver(() => ({ status: 200, hold: released }));
    const fast = await receiver(() => ({ status: 200 }));
    await call('POST', '/notify/v1/webhooks', { url: slow.url, events: ['*'], secret: 's' });
    await call('POST', '/notify/v1/webhooks', { url: 'http://127.0.0.1:9/dead', events: ['*'], secret: 'd' });
    const fastHook = await call('POST', '/notify/v1/webhooks', { url: fast.url, events: ['*'], secret: 'f' });
    const N = 40;
    for (let i = 0; i < N; i++) await call('POST', '/notify/v1/events/trigger', { type: 'tag.created' });
    // every delivery to the fast receiver completes while the slow one has not answered anything
    await fast.waitFor(N);
    await eventually(async () => (await call('GET', `/notify/v1/deliveries?webhookId=${fastHook.id}&status=delivered&limit=500`)).total === N);
    const counts = (await call('GET', '/notify/v1/deliveries?limit=1')).counts;
    expect(counts.delivered).toBe(N);
    expect(slow.requests.length).toBeGreaterThan(0);
    expect(slow.requests.length).toBeLessThan(N); // its lane is bounded
    release();
    await eventually(async () => (await call('GET', '/notify/v1/deliveries?limit=1')).counts.delivered === 2 * N);
    expect(slow.requests).toHaveLength(N);
  });
});
