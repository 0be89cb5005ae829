/**
 * Webhook delivery under the outbound-fetch policy, from the attacker's side: a webhook pointed at an
 * internal receiver on 127.0.0.1 under --fetch-policy public, and at the cloud metadata address under
 * the default. Each attempt fails with the policy's reason and the target never sees a request; by
 * default (a loopback bind) a receiver on 127.0.0.1 (`ops hook serve`) keeps getting its webhooks.
 */
import { afterEach, describe, expect, it } from 'vitest';
import service from '../../../src/services/notifications/index.js';
import { buildServiceApp } from '../../helpers/service-app.js';
import { eventually, startTestReceiver } from '../../helpers/test-receiver.js';
import type { ServeOptions } from '../../../src/services/types.js';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

async function host(options: Partial<ServeOptions>) {
  const s = await buildServiceApp(service, { retryScale: 0.0001, ...options });
  cleanups.push(() => s.close());
  const key = (await s.handle.localCredentials!()).notifyApiKey!;
  await s.listen();
  return async (method: string, url: string, payload?: unknown) =>
    (await s.app.inject({ method: method as 'GET', url, payload: payload as string, headers: { authorization: `Bearer ${key}` } })).json();
}

describe('webhook delivery and the fetch policy', () => {
  it('under public, a receiver on 127.0.0.1 is never contacted: each attempt says why', async () => {
    const call = await host({ fetchPolicy: 'public' });
    const rcv = await startTestReceiver(() => ({ status: 200 }));
    cleanups.push(() => rcv.close());
    await call('POST', '/notify/v1/webhooks', { url: rcv.url.replace('127.0.0.1', 'localhost'), events: ['*'], secret: 's' });
    await call('POST', '/notify/v1/webhooks', { url: rcv.url, events: ['*'], secret: 's' });
    const ev = await call('POST', '/notify/v1/events/trigger', { type: 'payment.completed' });
    for (const id of ev.deliveries as string[]) {
      const d = await eventually(async () => {
        const x = await call('GET', `/notify/v1/deliveries/${id}`);
        return x.status === 'failed' ? x : undefined;
      });
      expect(d.attempts.length).toBe(5);
      for (const a of d.attempts) expect(a.error).toMatch(/refused by the fetch policy 'public'.*loopback/);
    }
    expect(rcv.requests.length).toBe(0);
  });

  it('under the default (loopback bind), 127.0.0.1 receives and 169.254.169.254 is refused', async () => {
    const call = await host({});
    const rcv = await startTestReceiver(() => ({ status: 200 }));
    cleanups.push(() => rcv.close());
    await call('POST', '/notify/v1/webhooks', { url: rcv.url, events: ['payment.completed'], secret: 's' });
    await call('POST', '/notify/v1/webhooks', { url: 'http://169.254.169.254/latest/meta-data/', events: ['payment.completed'], secret: 's' });
    const ev = await call('POST', '/notify/v1/events/trigger', { type: 'payment.completed' });
    const outcomes = await eventually(async () => {
      const ds = await Promise.all((ev.deliveries as string[]).map((id) => call('GET', `/notify/v1/deliveries/${id}`)));
      return ds.every((d) => d.status !== 'pending') ? ds : undefined;
    });
    const byUrl = Object.fromEntries(outcomes.map((d: any) => [d.url, d]));
    expect(byUrl[rcv.url].status).toBe('delivered');
    const meta = byUrl['http://169.254.169.254/latest/meta-data/'];
    expect(meta.status).toBe('failed');
    for (const a of meta.attempts) expect(a.error).toMatch(/cloud metadata address \(refused under every policy\)/);
    expect(rcv.requests.length).toBe(1);
  });
});
