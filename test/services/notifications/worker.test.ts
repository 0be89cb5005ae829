/** The outbox and the worker driven by a manual clock, against real receivers on 127.0.0.1. */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createEnvelope, serializeEnvelope } from '../../../src/webhooks/envelope.js';
import { ManualClock } from '../../../src/webhooks/schedule.js';
import { NotifyStore } from '../../../src/services/notifications/store/index.js';
import { DeliveryWorker } from '../../../src/services/notifications/worker.js';
import { startTestReceiver, type TestReceiver } from '../../helpers/test-receiver.js';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

function setup(opts: { timeoutMs?: number; scale?: number } = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'ops-notify-w-'));
  const clock = new ManualClock(Date.UTC(2026, 0, 1));
  const store = new NotifyStore(dir);
  const worker = new DeliveryWorker({ store, clock, retryScale: opts.scale ?? 1, timeoutMs: opts.timeoutMs });
  cleanups.push(async () => {
    await worker.stop();
    store.close();
  });
  const emit = (type = 'user.created') => {
    const env = createEnvelope(type, { id: '7' }, { now: clock.now() });
    return { env, ...store.enqueueEvent(env, serializeEnvelope(env), clock.now()) };
  };
  return { dir, clock, store, worker, emit };
}

async function receiver(b: Parameters<typeof startTestReceiver>[0]): Promise<TestReceiver> {
  const r = await startTestReceiver(b);
  cleanups.push(() => r.close());
  return r;
}

describe('delivery worker (manual clock)', () => {
  it('a receiver that fails 4 times then succeeds gets exactly 5 attempts at the scheduled times', async () => {
    const { clock, store, worker, emit } = setup();
    const rcv = await receiver((_r, i) => ({ status: i < 4 ? 500 : 200 }));
    store.createWebhook({ url: rcv.url, events: ['user.created'], secret: 's' }, clock.now());
    const { deliveryIds } = emit();
    const id = deliveryIds[0]!;
    const t0 = clock.now();

    expect(await worker.runDue()).toBe(1);
    let d = store.getDelivery(id)!;
    expect(d).toMatchObject({ status: 'pending', attemptCount: 1, lastStatusCode: 500 });
    expect(Date.parse(d.nextAttemptAt!)).toBe(t0 + 60_000);

    // nothing is due one ms early
    const gaps = [60_000, 300_000, 1_800_000, 7_200_000];
    for (const [i, gap] of gaps.entries()) {
      const failedAt = clock.now();
      clock.advance(gap - 1);
      expect(await worker.runDue()).toBe(0);
      clock.advance(1);
      expect(await worker.runDue()).toBe(1);
      d = store.getDelivery(id)!;
      expect(d.attemptCount).toBe(i + 2);
      if (i < 3) expect(Date.parse(d.nextAttemptAt!)).toBe(clock.now() + gaps[i + 1]!);
      expect(Date.parse(d.attempts[i + 1]!.startedAt)).toBe(failedAt + gap);
    }
    expect(d.status).toBe('delivered');
    expect(d.attempts.map((a) => a.outcome)).toEqual(['failure', 'failure', 'failure', 'failure', 'success']);
    expect(d.attempts.map((a) => a.statusCode)).toEqual([500, 500, 500, 500, 200]);
    expect(rcv.requests).toHaveLength(5);
    clock.advance(10 * 3_600_000);
    expect(await worker.runDue()).toBe(0);
    expect(rcv.requests).toHaveLength(5);
  });

  it('a receiver that always fails ends failed after 5 attempts', async () => {
    const { clock, store, worker, emit } = setup();
    const rcv = await receiver(() => ({ status: 503, body: 'down for maintenance' }));
    store.createWebhook({ url: rcv.url, events: ['*'], secret: 's' }, clock.now());
    const id = emit('payment.failed').deliveryIds[0]!;
    for (let i = 0; i < 8; i++) {
      await worker.runDue();
      clock.advance(3 * 3_600_000);
    }
    const d = store.getDelivery(id)!;
    expect(d).toMatchObject({ status: 'failed', attemptCount: 5, nextAttemptAt: null, lastStatusCode: 503, lastError: 'HTTP 503' });
    expect(d.attempts[0]!.responseExcerpt).toBe('down for maintenance');
    expect(rcv.requests).toHaveLength(5);
    expect(store.countsByStatus()).toEqual({ pending: 0, delivered: 0, failed: 1 });
  });

  it('sends the stored bytes with the signature and metadata headers on every attempt', async () => {
    const { clock, store, worker, emit } = setup();
    const rcv = await receiver((_r, i) => ({ status: i === 0 ? 500 : 204 }));
    store.createWebhook({ url: rcv.url, events: ['user.created'], secret: 'k' }, clock.now());
    const { env } = emit();
    await worker.runDue();
    clock.advance(60_000);
    await worker.runDue();
    const { createHmac } = await import('node:crypto');
    const bytes = serializeEnvelope(env).toString();
    for (const [i, r] of rcv.requests.entries()) {
      expect(r.body.toString()).toBe(bytes);
      expect(r.headers['content-type']).toBe('application/json');
      expect(r.headers['x-signature']).toBe(createHmac('sha256', 'k').update(bytes).digest('hex'));
      expect(r.headers['x-ops-attempt']).toBe(String(i + 1));
    }
  });

  it('only subscribed types are delivered', async () => {
    const { clock, store, worker, emit } = setup();
    const rcv = await receiver(() => ({ status: 200 }));
    store.createWebhook({ url: rcv.url, events: ['payment.completed'], secret: 's' }, clock.now());
    expect(emit('user.created').deliveryIds).toEqual([]);
    expect(emit('payment.completed').deliveryIds).toHaveLength(1);
    await worker.runDue();
    expect(rcv.requests.map((r) => JSON.parse(r.body.toString()).type)).toEqual(['payment.completed']);
  });

  it('a receiver answering after the timeout counts as a failure', async () => {
    const { clock, store, worker, emit } = setup({ timeoutMs: 300 });
    const rcv = await receiver(() => ({ status: 200, delayMs: 2000 }));
    store.createWebhook({ url: rcv.url, events: ['*'], secret: 's' }, clock.now());
    const id = emit().deliveryIds[0]!;
    await worker.runDue();
    const d = store.getDelivery(id)!;
    expect(d).toMatchObject({ status: 'pending', attemptCount: 1, lastStatusCode: null });
    expect(d.lastError).toMatch(/timeout/);
  });

  it('connection errors and 3xx are failures too', async () => {
    const { clock, store, worker, emit } = setup();
    const rcv = await receiver(() => ({ status: 302 }));
    store.createWebhook({ url: rcv.url, events: ['*'], secret: 's' }, clock.now());
    store.createWebhook({ url: 'http://127.0.0.1:9/dead', events: ['*'], secret: 's' }, clock.now());
    const ids = emit().deliveryIds;
    await worker.runDue();
    const [a, b] = ids.map((i) => store.getDelivery(i)!);
    expect(a).toMatchObject({ status: 'pending', lastStatusCode: 302 });
    expect(b!.lastError).toMatch(/ECONNREFUSED/);
  });

  it('an attempt cut off by a crash is marked interrupted, not counted, and retried at once', async () => {
    const { dir, clock, store, emit } = setup();
    const rcv = await receiver(() => ({ status: 200 }));
    store.createWebhook({ url: rcv.url, events: ['*'], secret: 's' }, clock.now());
    const id = emit().deliveryIds[0]!;
    // simulate a crash: lease it (attempt row open) and never finish
    const taken = store.takeDue(store.webhookIds()[0]!, clock.now(), 10, clock.now() + 6000);
    expect(taken).toHaveLength(1);
    expect(store.getDelivery(id)!.attempts[0]!.outcome).toBe('in_flight');
    // "restart": a new store on the same files
    const store2 = new NotifyStore(dir);
    const worker2 = new DeliveryWorker({ store: store2, clock });
    cleanups.push(async () => {
      await worker2.stop();
      store2.close();
    });
    expect(store2.recoverInterrupted(clock.now())).toBe(1);
    expect(await worker2.runDue()).toBe(1);
    const d = store2.getDelivery(id)!;
    expect(d).toMatchObject({ status: 'delivered', attemptCount: 1 });
    expect(d.attempts.map((a) => a.outcome)).toEqual(['interrupted', 'success']);
  });

  it('redeliver gives a failed delivery a fresh series; webhook deletion fails pending ones', async () => {
    const { clock, store, worker, emit } = setup();
    let ok = false;
    const rcv = await receiver(() => ({ status: ok ? 200 : 500 }));
    const w = store.createWebhook({ url: rcv.url, events: ['*'], secret: 's' }, clock.now());
    const id = emit().deliveryIds[0]!;
    for (let i = 0; i < 6; i++) {
      await worker.runDue();
      clock.advance(3 * 3_600_000);
    }
    expect(store.getDelivery(id)!.status).toBe('failed');
    ok = true;
    const r = store.redeliver(id, clock.now());
    expect(r.ok && r.delivery.status).toBe('pending');
    await worker.runDue();
    expect(store.getDelivery(id)).toMatchObject({ status: 'delivered', attemptCount: 6 });
    expect(store.redeliver('dlv_nope', clock.now())).toMatchObject({ ok: false, code: 404 });

    ok = false;
    const id2 = emit().deliveryIds[0]!;
    await worker.runDue();
    expect(store.getDelivery(id2)!.status).toBe('pending');
    expect(store.deleteWebhook(w.id, clock.now())).toBe(true);
    expect(store.getDelivery(id2)).toMatchObject({ status: 'failed', lastError: 'webhook deleted' });
    expect(store.redeliver(id2, clock.now())).toMatchObject({ ok: false, code: 409 });
  });

  it('redelivering a pending delivery sends it now and starts a fresh series of 5 attempts', async () => {
    const { clock, store, worker, emit } = setup();
    const rcv = await receiver(() => ({ status: 500 }));
    store.createWebhook({ url: rcv.url, events: ['*'], secret: 's' }, clock.now());
    const id = emit().deliveryIds[0]!;
    // 3 failed attempts: pending, 2 left in this series
    for (let i = 0; i < 3; i++) {
      await worker.runDue();
      clock.advance(3 * 3_600_000);
    }
    clock.advance(-3 * 3_600_000 + 1); // back to just after the 3rd failure: the 4th is not due yet
    expect(store.getDelivery(id)).toMatchObject({ status: 'pending', attemptCount: 3 });
    const r = store.redeliver(id, clock.now());
    expect(r.ok).toBe(true);
    expect(await worker.runDue()).toBe(1); // sent at once
    // the fresh series: 4 more failures keep it pending, the 5th of the series fails it
    for (let i = 0; i < 4; i++) {
      expect(store.getDelivery(id)!.status).toBe('pending');
      clock.advance(3 * 3_600_000);
      await worker.runDue();
    }
    expect(store.getDelivery(id)).toMatchObject({ status: 'failed', attemptCount: 8 });
    expect(rcv.requests).toHaveLength(8);
  });
});
