/**
 * Description 3, States and transitions: when the 5th attempt fails, the delivery is failed and
 * "the webhook is marked failed". A later successful delivery makes it active again.
 */
import Database from 'better-sqlite3';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createEnvelope, serializeEnvelope } from '../../../src/webhooks/envelope.js';
import { ManualClock } from '../../../src/webhooks/schedule.js';
import { NotifyStore } from '../../../src/services/notifications/store/index.js';
import { DeliveryWorker } from '../../../src/services/notifications/worker.js';
import service from '../../../src/services/notifications/index.js';
import { buildServiceApp } from '../../helpers/service-app.js';
import { eventually, startTestReceiver, type TestReceiver } from '../../helpers/test-receiver.js';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

async function receiver(b: Parameters<typeof startTestReceiver>[0]): Promise<TestReceiver> {
  const r = await startTestReceiver(b);
  cleanups.push(() => r.close());
  return r;
}

describe('webhook status (store and worker, manual clock)', () => {
  it('is active, becomes failed after a delivery fails its 5th attempt, and active again after a success', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ops-notify-ws-'));
    const clock = new ManualClock(Date.UTC(2026, 0, 1));
    const store = new NotifyStore(dir);
    const worker = new DeliveryWorker({ store, clock, retryScale: 1 });
    cleanups.push(async () => {
      await worker.stop();
      store.close();
    });
    let failing = true;
    const rcv = await receiver(() => ({ status: failing ? 500 : 200 }));
    const w = store.createWebhook({ url: rcv.url, events: ['*'], secret: 's' }, clock.now());
    expect(w).toMatchObject({ status: 'active', failedAt: null });
    const emit = () => {
      const env = createEnvelope('payment.failed', { amount: 1 }, { now: clock.now() });
      return store.enqueueEvent(env, serializeEnvelope(env), clock.now()).deliveryIds[0]!;
    };

    const id = emit();
    for (let i = 0; i < 4; i++) {
      await worker.runDue();
      // still retrying: not marked yet
      expect(store.getWebhook(w.id)!.status).toBe('active');
      clock.advance(3 * 3_600_000);
    }
    await worker.runDue();
    expect(store.getDelivery(id)!.status).toBe('failed');
    const failedAt = clock.now();
    expect(store.getWebhook(w.id)).toMatchObject({ status: 'failed', failedAt: new Date(failedAt).toISOString() });

    // it survives a restart of the service
    await worker.stop();
    store.close();
    const reopened = new NotifyStore(dir);
    const worker2 = new DeliveryWorker({ store: reopened, clock, retryScale: 1 });
    cleanups.push(async () => {
      await worker2.stop();
      reopened.close();
    });
    expect(reopened.getWebhook(w.id)).toMatchObject({ status: 'failed' });

    failing = false;
    reopened.redeliver(id, clock.now());
    await worker2.runDue();
    expect(reopened.getDelivery(id)!.status).toBe('delivered');
    expect(reopened.getWebhook(w.id)).toMatchObject({ status: 'active', failedAt: null });
  });

  it('opens a database written before webhooks had a status', () => {
    const dir = mkdtempSync(join(tmpdir(), 'ops-notify-old-'));
    const db = new Database(join(dir, 'notifications.db'));
    db.exec(`CREATE TABLE webhooks (id TEXT PRIMARY KEY, url TEXT NOT NULL, events TEXT NOT NULL, secret TEXT NOT NULL,
      description TEXT, created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL)`);
    db.prepare('INSERT INTO webhooks VALUES (?, ?, ?, ?, ?, ?, ?)').run('wh_old', 'http://127.0.0.1:9/', '["*"]', 's', null, 1, 1);
    db.close();
    const store = new NotifyStore(dir);
    try {
      expect(store.getWebhook('wh_old')).toMatchObject({ id: 'wh_old', status: 'active', failedAt: null });
    } finally {
      store.close();
    }
  });
});

describe('webhook status (API)', () => {
  it('GET /v1/webhooks shows a webhook marked failed once a delivery to it failed', async () => {
    const s = await buildServiceApp(service, { retryScale: 0.0001 });
    cleanups.push(() => s.close());
    const key = (await s.handle.localCredentials!()).notifyApiKey!;
    await s.listen();
    const call = async (method: string, url: string, payload?: unknown) =>
      (await s.app.inject({ method: method as 'GET', url, payload: payload as string, headers: { authorization: `Bearer ${key}` } })).json();
    const rcv = await receiver(() => ({ status: 500 }));
    const w = await call('POST', '/notify/v1/webhooks', { url: rcv.url, events: ['*'], secret: 'a' });
    expect(w).toMatchObject({ status: 'active', failedAt: null });
    const { deliveries } = await call('POST', '/notify/v1/events/trigger', { type: 'user.deleted' });
    await eventually(async () => (await call('GET', `/notify/v1/deliveries/${deliveries[0]}`)).status === 'failed', 30_000);
    const got = await call('GET', `/notify/v1/webhooks/${w.id}`);
    expect(got).toMatchObject({ status: 'failed', failedAt: expect.any(String) });
    expect((await call('GET', '/notify/v1/webhooks')).data[0]).toMatchObject({ id: w.id, status: 'failed' });
  }, 40_000);
});
