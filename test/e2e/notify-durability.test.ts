/**
 * kill -9 of `ops serve` with webhook deliveries pending and in flight; after a restart on the same
 * data every delivery is made, no event is lost, and every request a receiver got has exactly one
 * attempt record (none is marked delivered that did not get a 2xx).
 */
import { request } from 'undici';
import { afterAll, describe, expect, it } from 'vitest';
import { isolatedEnv, ops, startServe, tempDir, type ServeHandle } from '../helpers/cli.js';
import { eventually, startTestReceiver, type TestReceiver } from '../helpers/test-receiver.js';

const toStop: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const stop of toStop) await stop().catch(() => {});
});

describe('notification outbox durability', () => {
  it('kill -9 with deliveries pending and in flight, restart: all delivered, exactly once per attempt record', async () => {
    let phase: 'before' | 'after' = 'before';
    const never = new Promise<void>(() => {}); // no answer before the kill
    const failing: TestReceiver = await startTestReceiver(() => ({ status: phase === 'before' ? 500 : 200 }));
    const hanging: TestReceiver = await startTestReceiver(() => (phase === 'before' ? { hold: never } : { status: 200 }));
    toStop.push(
      () => failing.close(),
      () => hanging.close(),
    );

    const env = isolatedEnv();
    const dataDir = tempDir('ops-notify-kill-');
    const first: ServeHandle = await startServe(['--retry-scale', '0.05'], env, dataDir); // retry 2 comes 3 s after a failure
    toStop.push(() => first.stop('SIGKILL'));
    const key = String((await ops(['config', 'get', 'notify.api-key', '--show-secret'], { env })).stdout);
    expect(key).toMatch(/^ntf_/);
    const api = async (base: string, method: string, path: string, body?: unknown) => {
      const r = await request(`${base}/notify${path}`, {
        method: method as 'GET',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return (await r.body.json()) as any;
    };
    await api(first.url, 'POST', '/v1/webhooks', { url: failing.url, events: ['*'], secret: 'a' });
    await api(first.url, 'POST', '/v1/webhooks', { url: hanging.url, events: ['*'], secret: 'b' });
    const N = 30;
    const eventIds: string[] = [];
    for (let i = 0; i < N; i++) eventIds.push((await api(first.url, 'POST', '/v1/events/trigger', { type: 'payment.completed' })).event.id);

    await failing.waitFor(N);
    await hanging.waitFor(16); // its lane is full: 16 in flight, the other 14 due and waiting
    await eventually(async () => (await api(first.url, 'GET', '/v1/deliveries?status=pending&limit=500')).data.filter((d: any) => d.attemptCount === 1).length === N);
    await first.stop('SIGKILL');
    const hangingBefore = hanging.requests.length;
    expect(hangingBefore).toBeLessThan(N);

    phase = 'after';
    const second = await startServe(['--retry-scale', '0.05'], env, dataDir);
    toStop.push(() => second.stop());
    await eventually(async () => (await api(second.url, 'GET', '/v1/deliveries?limit=1')).counts.delivered === 2 * N, 30_000);
    const all = (await api(second.url, 'GET', '/v1/deliveries?limit=500')).data as any[];
    expect(all).toHaveLength(2 * N);
    expect(new Set(all.map((d) => d.eventId))).toEqual(new Set(eventIds));

    for (const rcv of [failing, hanging]) {
      for (const d of all.filter((x) => x.url === rcv.url)) {
        const got = rcv.requests.filter((q) => JSON.parse(q.body.toString()).id === d.eventId);
        // every request the receiver got has exactly one attempt record, and vice versa
        expect(got.length).toBe(d.attempts.length);
        expect(d.attempts.filter((a: any) => a.outcome === 'success')).toHaveLength(1);
        expect(d.attempts.at(-1).outcome).toBe('success');
      }
    }
    for (const d of all.filter((x) => x.url === failing.url)) expect(d.attempts.map((a: any) => a.statusCode)).toEqual([500, 200]);
    const interrupted = all.filter((d) => d.attempts.some((a: any) => a.outcome === 'interrupted'));
    expect(interrupted).toHaveLength(hangingBefore);
    for (const d of interrupted) expect(d.attemptCount).toBe(1); // the cut-off try is not counted against the 5
    await second.stop();
    expect((await second.process).exitCode).toBe(0);
  }, 90_000);
});
