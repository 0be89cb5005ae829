/**
 * kill -9 of the process hosting the notification service with deliveries pending and in flight;
 * after a restart on the same data every delivery is made, no event is lost, and every request a
 * receiver got has its attempt record (none marked delivered that was not).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt } from '../../helpers/built-dist.js';
import { eventually, startTestReceiver, type TestReceiver } from '../../helpers/test-receiver.js';

const HOST = join(import.meta.dirname, 'fixtures', 'host-notify.mjs');
const children: ChildProcess[] = [];
const receivers: TestReceiver[] = [];

beforeAll(() => {
  ensureBuilt('services/notifications/index.js', ['services', 'webhooks']);
}, 120_000);
afterAll(async () => {
  for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
  for (const r of receivers) await r.close();
});

async function startHost(dataDir: string, scale: number): Promise<{ child: ChildProcess; url: string; key: string | null }> {
  const child = spawn(process.execPath, [HOST, dataDir, String(scale)], { stdio: ['ignore', 'pipe', 'inherit'] });
  children.push(child);
  const line = await new Promise<string>((resolve, reject) => {
    const rl = createInterface({ input: child.stdout! });
    rl.once('line', resolve);
    child.once('exit', (code) => reject(new Error(`host exited early with ${code}`)));
  });
  const { url, key } = JSON.parse(line) as { url: string; key: string | null };
  return { child, url, key };
}

describe('durability', () => {
  it('kill -9 with deliveries pending and in flight, restart: all delivered, exactly once per attempt record', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'ops-notify-kill-'));
    let phase: 'before' | 'after' = 'before';
    const hold = new Promise<void>(() => {}); // never answers before the kill
    const failing = await startTestReceiver(() => ({ status: phase === 'before' ? 500 : 200 }));
    const hanging = await startTestReceiver(() => (phase === 'before' ? { hold } : { status: 200 }));
    receivers.push(failing, hanging);

    const first = await startHost(dataDir, 0.05); // retry 2 after 3 s
    const key = first.key!;
    expect(key).toMatch(/^ntf_/);
    const api = async (base: string, method: string, path: string, body?: unknown) => {
      const r = await request(`${base}/notify${path}`, {
        method: method as 'GET',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return r.body.json() as Promise<any>;
    };
    await api(first.url, 'POST', '/v1/webhooks', { url: failing.url, events: ['*'], secret: 'a' });
    await api(first.url, 'POST', '/v1/webhooks', { url: hanging.url, events: ['*'], secret: 'b' });
    const N = 20;
    const eventIds: string[] = [];
    for (let i = 0; i < N; i++) eventIds.push((await api(first.url, 'POST', '/v1/events/trigger', { type: 'payment.completed' })).event.id);

    await failing.waitFor(N);
    await hanging.waitFor(8); // its lane is full: 8 in flight, 12 due and waiting
    await eventually(async () => (await api(first.url, 'GET', '/v1/deliveries?status=pending&limit=500')).data.filter((d: any) => d.attemptCount === 1).length === N);
    first.child.kill('SIGKILL');
    await new Promise((r) => first.child.once('exit', r));
    const hangingBefore = hanging.requests.length;
    expect(hangingBefore).toBeLessThan(N);

    phase = 'after';
    const second = await startHost(dataDir, 0.05);
    expect(second.key).toBeNull(); // the key from the first start still works
    await eventually(async () => (await api(second.url, 'GET', '/v1/deliveries?limit=1')).counts.delivered === 2 * N, 30_000);
    const all = (await api(second.url, 'GET', '/v1/deliveries?limit=500')).data as any[];
    expect(all).toHaveLength(2 * N);
    expect(new Set(all.map((d) => d.eventId))).toEqual(new Set(eventIds));

    for (const [rcv, d] of [failing, hanging].flatMap((r) => all.filter((d) => d.url === r.url).map((d) => [r, d] as const))) {
      const got = rcv.requests.filter((q) => JSON.parse(q.body.toString()).id === d.eventId);
      // every request the receiver got has exactly one attempt record, and vice versa
      expect(got.length).toBe(d.attempts.length);
      expect(d.attempts.filter((a: any) => a.outcome === 'success')).toHaveLength(1);
      expect(d.attempts.at(-1).outcome).toBe('success');
    }
    const failingDeliveries = all.filter((d) => d.url === failing.url);
    for (const d of failingDeliveries) expect(d.attempts.map((a: any) => a.statusCode)).toEqual([500, 200]);
    const interrupted = all.filter((d) => d.attempts.some((a: any) => a.outcome === 'interrupted'));
    expect(interrupted).toHaveLength(hangingBefore);
    for (const d of interrupted) expect(d.attemptCount).toBe(1); // the interrupted try is not counted
    second.child.kill('SIGTERM');
  }, 90_000);
});
